import {
  fitToMaxTokens,
  lastUserText,
  type SamplingReply,
  type SamplingRequest,
  type SamplingResponder,
} from "./request.js";

/**
 * Answers with the last user message's text (as `{"echo": text}` when a JSON response
 * format is asked for): deterministic completions for development and tests.
 */
export class EchoResponder implements SamplingResponder {
  readonly name = "echo";

  async respond(request: SamplingRequest): Promise<SamplingReply> {
    const text = lastUserText(request);
    const json = request.responseFormat && request.responseFormat.type !== "text";
    const reply = json ? JSON.stringify({ echo: text }) : text;
    const fitted = json ? { text: reply, truncated: false } : fitToMaxTokens(reply, request.maxTokens);
    return { text: fitted.text, model: "echo", stopReason: fitted.truncated ? "maxTokens" : "endTurn" };
  }
}
