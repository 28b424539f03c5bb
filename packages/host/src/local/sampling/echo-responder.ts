import { sampleForSchema } from "./json-schema-sample.js";
import {
  fitToMaxTokens,
  lastUserText,
  type SamplingReply,
  type SamplingRequest,
  type SamplingResponder,
} from "./request.js";

/**
 * Answers with the last user message's text: as is for text, as `{"echo": text}` in JSON
 * mode, and as a value built from the schema (strings from the prompt, numbers at their
 * minimum, the first enum option) for a `json_schema` format — deterministic completions
 * for development and tests, structured ones included.
 */
export class EchoResponder implements SamplingResponder {
  readonly name = "echo";

  async respond(request: SamplingRequest): Promise<SamplingReply> {
    const text = lastUserText(request);
    const format = request.responseFormat;
    if (format?.type === "json_schema") {
      const value = sampleForSchema(format.json_schema.schema, text);
      return { text: JSON.stringify(value), model: "echo", stopReason: "endTurn" };
    }
    if (format?.type === "json_object") {
      return { text: JSON.stringify({ echo: text }), model: "echo", stopReason: "endTurn" };
    }
    const fitted = fitToMaxTokens(text, request.maxTokens);
    return { text: fitted.text, model: "echo", stopReason: fitted.truncated ? "maxTokens" : "endTurn" };
  }
}
