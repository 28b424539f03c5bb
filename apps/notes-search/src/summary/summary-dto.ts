import { Field, Structured } from "@executa/decorators";
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from "class-validator";

/** Most key points a summary has. */
export const MAX_POINTS = 10;
/** Longest title, in characters. */
export const MAX_TITLE_CHARS = 120;
/** Longest key point, in characters. */
export const MAX_POINT_CHARS = 400;

/** The tones a summary can report. */
export const SENTIMENTS = ["positive", "neutral", "negative", "mixed"] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

/**
 * The shape the model must answer in. `sampling.createObject` sends its JSON Schema as the
 * `responseFormat`, then parses the answer and validates it with these same decorators.
 */
@Structured({
  name: "summary",
  description: "A summary of a text: a short title, its key points and its overall sentiment.",
})
export class SummaryDto {
  @Field({ description: `A short title for the text (at most ${MAX_TITLE_CHARS} characters).` })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_TITLE_CHARS)
  @Matches(/\S/, { message: "must not be blank" })
  title!: string;

  @Field({ description: "The key points, one sentence each, most important first." })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_POINTS)
  @IsString({ each: true })
  @MaxLength(MAX_POINT_CHARS, { each: true })
  @Matches(/\S/, { each: true, message: "each point must be a non-blank sentence" })
  points!: string[];

  @Field({ description: "The overall tone of the text." })
  @IsIn(SENTIMENTS)
  sentiment!: Sentiment;
}
