import { fileURLToPath } from "node:url";

/** The mock fixtures the README's `executa dev --mock` uses. */
export const SUMMARY_FIXTURES = fileURLToPath(new URL("../../fixtures/summarize.jsonl", import.meta.url));

/** A text the fixtures answer with a positive three-point summary. */
export const RETROSPECTIVE =
  "Sprint 42 retrospective. We shipped the new search page two days early, and the " +
  "design review went smoothly. Flaky end-to-end tests cost us about a day of reruns. " +
  "Next sprint we quarantine flaky tests and pair on code reviews.";

/** A text the fixtures answer with a negative summary. */
export const INCIDENT =
  "Incident report: checkout outage. Checkout failed for 47 minutes on Tuesday because the " +
  "TLS certificate of the payments gateway expired. 1,200 orders were retried automatically.";

/** The namespace of the plugin's `tool` scope in the local host's store. */
export const TOOL_NAMESPACE = "tool:local-user:notes-search";

/** A sampling fixture line answering prompts that contain `promptIncludes` with `text`. */
export function modelAnswer(promptIncludes: string, text: string) {
  return {
    ns: "llm",
    method: "complete",
    match: { promptIncludes },
    result: {
      role: "assistant",
      content: { type: "text", text },
      model: "fixture-model",
      stopReason: "endTurn",
    },
  };
}
