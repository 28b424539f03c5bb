import type { SamplingMessage } from "@executa/core";
import { SENTIMENTS } from "./summary-dto.js";

/** Marks the text to summarize off from the instructions (mock fixtures match on it too). */
export const TEXT_FENCE = '"""';

/** The system prompt of every summary request. */
export const SUMMARY_SYSTEM_PROMPT =
  "You summarize texts. Answer with a single JSON object and nothing else: " +
  '{"title": string, "points": string[], "sentiment": ' +
  `${SENTIMENTS.map((sentiment) => `"${sentiment}"`).join(" | ")}}.`;

/** The user message that asks for a summary of `text` in at most `maxPoints` points. */
export function summaryMessages(text: string, maxPoints: number): SamplingMessage[] {
  const points = maxPoints === 1 ? "one key point" : `at most ${maxPoints} key points`;
  return [
    {
      role: "user",
      content:
        `Summarize the text below in ${points}, most important first, with a short title and ` +
        `its overall sentiment.\n\n${TEXT_FENCE}\n${text}\n${TEXT_FENCE}`,
    },
  ];
}
