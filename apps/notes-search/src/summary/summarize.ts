import type { SamplingClient } from "@executa/core";
import { type Sentiment, SummaryDto } from "./summary-dto.js";
import { SUMMARY_SYSTEM_PROMPT, summaryMessages } from "./summary-prompt.js";

/** What `summarize` answers. */
export interface Summary {
  title: string;
  points: string[];
  sentiment: Sentiment;
}

/** Room for a title and ten sentences; the host caps it further if it must. */
const SUMMARY_MAX_TOKENS = 800;

/**
 * Asks the host's model for a summary of `text` in the {@link SummaryDto} schema. An
 * answer outside the schema is sent back once with the problems found; a second one
 * rejects with core's `StructuredOutputError`. Points beyond `maxPoints` are dropped:
 * the schema cannot carry a per-call maximum, and a model that over-delivers still
 * answered the question.
 */
export async function summarize(sampling: SamplingClient, text: string, maxPoints: number): Promise<Summary> {
  const { object } = await sampling.createObject(SummaryDto, {
    systemPrompt: SUMMARY_SYSTEM_PROMPT,
    messages: summaryMessages(text, maxPoints),
    maxTokens: SUMMARY_MAX_TOKENS,
    temperature: 0.2,
    retries: 1,
  });
  return {
    title: object.title.trim(),
    points: object.points.slice(0, maxPoints).map((point) => point.trim()),
    sentiment: object.sentiment,
  };
}
