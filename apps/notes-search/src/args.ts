/** The arguments of each tool, validated by class-validator before the tool runs (-32602 otherwise). */
import { Field } from "@executa/decorators";
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from "class-validator";
import { NOTE_ID_PATTERN, NOTE_ID_RULE } from "./notes/note-id.js";
import { MAX_POINTS } from "./summary/summary-dto.js";

/** Longest text `summarize` takes, in characters. */
export const MAX_SUMMARY_INPUT_CHARS = 20_000;
/** Longest note, in characters (well within an embedding model's input). */
export const MAX_NOTE_CHARS = 8_000;
/** Longest search query, in characters. */
export const MAX_QUERY_CHARS = 1_000;
/** Most results one search answers. */
export const MAX_SEARCH_LIMIT = 20;

const NOT_BLANK = /\S/;

export class SummarizeArgs {
  @Field({ description: `The text to summarize (up to ${MAX_SUMMARY_INPUT_CHARS} characters).` })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_SUMMARY_INPUT_CHARS)
  @Matches(NOT_BLANK, { message: "must not be blank" })
  text!: string;

  @Field({ description: `How many key points at most (1-${MAX_POINTS}).` })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_POINTS)
  max_points: number = 5;
}

export class NoteAddArgs {
  @Field({ description: `The note's id (${NOTE_ID_RULE}); adding an existing id replaces that note.` })
  @IsString()
  @Matches(NOTE_ID_PATTERN, { message: `must be ${NOTE_ID_RULE}` })
  id!: string;

  @Field({ description: `The note's text (up to ${MAX_NOTE_CHARS} characters).` })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_NOTE_CHARS)
  @Matches(NOT_BLANK, { message: "must not be blank" })
  text!: string;
}

export class NoteSearchArgs {
  @Field({ description: `What to look for, in words (up to ${MAX_QUERY_CHARS} characters).` })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_QUERY_CHARS)
  @Matches(NOT_BLANK, { message: "must not be blank" })
  query!: string;

  @Field({ description: `How many notes to answer at most (1-${MAX_SEARCH_LIMIT}).` })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_SEARCH_LIMIT)
  limit: number = 5;
}

export class NoteRemoveArgs {
  @Field({ description: "The id given to note_add." })
  @IsString()
  @Matches(NOTE_ID_PATTERN, { message: `must be ${NOTE_ID_RULE}` })
  id!: string;
}
