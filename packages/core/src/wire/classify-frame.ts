import type { RequestId } from "./jsonrpc.js";
import { parseFrame } from "./parse-frame.js";

/** A request: it carries a method and an id, and must be answered. */
export interface RequestFrameClass {
  kind: "request";
  /** `null` is a legal (if discouraged) request id; the answer echoes it. */
  id: RequestId | null;
  /** The id's exact source text, when it is a number JavaScript cannot hold exactly (see `parseFrame`). */
  idText?: string;
  method: string;
  params: unknown;
  frame: Record<string, unknown>;
}

/** A notification: a method without an id; never answered. */
export interface NotificationFrameClass {
  kind: "notification";
  method: string;
  params: unknown;
  frame: Record<string, unknown>;
}

/** A response: a result, an error, or a file-transport pointer to the real response. */
export interface ResponseFrameClass {
  kind: "response";
  /** `"file-transport"`: the response sits in the file at `path`. */
  outcome: "result" | "error" | "file-transport";
  /**
   * The id of the request it answers. `null` when the id was null or missing: an answer
   * no request can own (e.g. to a line its writer could not parse).
   */
  id: RequestId | null;
  idText?: string;
  /** The file-transport path, for `outcome: "file-transport"`. */
  path?: string;
  frame: Record<string, unknown>;
}

/** Why a line is not a JSON-RPC 2.0 frame. */
export type NotAFrameReason =
  /** Not JSON at all (a print, a banner). */
  | "not-json"
  /** A JSON array: a JSON-RPC batch, which the protocol does not use (one message per line). */
  | "batch"
  /** JSON, but a string, number, boolean or null. */
  | "not-an-object"
  /** An object without `jsonrpc` (a JSON log line, or a frame missing it). */
  | "missing-jsonrpc"
  /** `jsonrpc` is there but is not `"2.0"`. */
  | "wrong-jsonrpc"
  /** `method` is there but is not a string. */
  | "method-not-a-string"
  /** `id` is there but is not a string, a number or null. */
  | "invalid-id"
  /** `params` is there but is neither an object nor an array. */
  | "invalid-params"
  /** A `jsonrpc: "2.0"` object with no `method`, `result`, `error` or `__file_transport`. */
  | "neither-request-nor-response";

/**
 * What a line that is not a frame tried to be, judged by its members: `"request"` (it
 * has `method`), `"response"` (`result`, `error` or `__file_transport`, no `method`),
 * `"message"` (only `jsonrpc` or `id`). Absent when it has no JSON-RPC member at all:
 * a log line, not a broken frame.
 */
export type AttemptedFrame = "request" | "response" | "message";

/** A line that is not a JSON-RPC 2.0 frame, and why. */
export interface NotAFrameClass {
  kind: "not-a-frame";
  reason: NotAFrameReason;
  /** The rule it breaks, as a phrase for logs and error messages (e.g. `jsonrpc must be "2.0"`). */
  why: string;
  attempted?: AttemptedFrame;
  /** The parsed object, when the line is a JSON object. */
  frame?: Record<string, unknown>;
  /** The id to answer it with: its own id when that is a valid id, else null. */
  replyId: RequestId | null;
  /** The exact text of `replyId`, as in {@link RequestFrameClass.idText}. */
  replyIdText?: string;
}

/** One stdout/stdin line, classified. */
export type FrameClass = RequestFrameClass | NotificationFrameClass | ResponseFrameClass | NotAFrameClass;

/**
 * Classifies one line as JSON-RPC 2.0: a request, a notification, a response (result,
 * error or file-transport pointer), or not a frame with the reason. The one definition of
 * "a frame" that the peer, the host's stdout demux and `executa check` share; each decides
 * on its own what to do with the classes (answer, divert, judge). Never throws.
 */
export function classifyFrame(text: string): FrameClass {
  let parsed: ReturnType<typeof parseFrame>;
  try {
    parsed = parseFrame(text);
  } catch (error) {
    return notAFrame("not-json", (error as Error).message);
  }
  const { value, idText } = parsed;
  if (Array.isArray(value)) return notAFrame("batch", "a frame must be a JSON object, not a batch (array)");
  if (typeof value !== "object" || value === null)
    return notAFrame("not-an-object", "a frame must be a JSON object");
  return classifyObject(value as Record<string, unknown>, idText);
}

/** What the checks of one object need to know about its id. */
interface IdFacts {
  valid: boolean;
  idText: string | undefined;
  /** The id to answer a broken frame with (see {@link NotAFrameClass.replyId}). */
  reply: Pick<NotAFrameClass, "replyId" | "replyIdText">;
}

function classifyObject(frame: Record<string, unknown>, idText: string | undefined): FrameClass {
  const valid = isValidId(frame.id, idText);
  const reply: IdFacts["reply"] = { replyId: valid ? (frame.id as RequestId | null) : null };
  if (valid && idText !== undefined) reply.replyIdText = idText;
  const facts: IdFacts = { valid, idText, reply };
  const attempted = attemptOf(frame);
  if (frame.jsonrpc !== "2.0") {
    const reason = "jsonrpc" in frame ? "wrong-jsonrpc" : "missing-jsonrpc";
    return broken(frame, reason, 'jsonrpc must be "2.0"', reply);
  }
  if (attempted === "request") return classifyRequest(frame, facts);
  if (attempted === "response") return classifyResponse(frame, facts);
  return broken(
    frame,
    "neither-request-nor-response",
    "a frame must be a request (with method) or a response (with id and result or error)",
    reply,
  );
}

function classifyRequest(frame: Record<string, unknown>, { valid, idText, reply }: IdFacts): FrameClass {
  const { method, params } = frame;
  if (typeof method !== "string")
    return broken(frame, "method-not-a-string", "method must be a string", reply);
  if ("id" in frame && !valid) return broken(frame, "invalid-id", INVALID_ID);
  if (params !== undefined && (typeof params !== "object" || params === null)) {
    return broken(frame, "invalid-params", "params must be an object or an array", reply);
  }
  if (!("id" in frame)) return { kind: "notification", method, params, frame };
  const request: RequestFrameClass = {
    kind: "request",
    id: frame.id as RequestId | null,
    method,
    params,
    frame,
  };
  if (idText !== undefined) request.idText = idText;
  return request;
}

function classifyResponse(frame: Record<string, unknown>, { valid, idText }: IdFacts): FrameClass {
  if (!valid && frame.id !== undefined) return broken(frame, "invalid-id", INVALID_ID);
  const id = (frame.id ?? null) as RequestId | null;
  const response: ResponseFrameClass = { kind: "response", outcome: outcomeOf(frame), id, frame };
  if (idText !== undefined) response.idText = idText;
  if (response.outcome === "file-transport") response.path = frame.__file_transport as string;
  return response;
}

const INVALID_ID = "id must be a string, a number or null";

/** A JSON object that is not a valid frame; `reply` absent: answered, if at all, with id null. */
function broken(
  frame: Record<string, unknown>,
  reason: NotAFrameReason,
  why: string,
  reply?: IdFacts["reply"],
): NotAFrameClass {
  const result: NotAFrameClass = { ...notAFrame(reason, why), ...reply, frame };
  const attempted = attemptOf(frame);
  if (attempted !== undefined) result.attempted = attempted;
  return result;
}

function outcomeOf(frame: Record<string, unknown>): ResponseFrameClass["outcome"] {
  if ("result" in frame) return "result";
  if ("error" in frame) return "error";
  return "file-transport";
}

function attemptOf(frame: Record<string, unknown>): AttemptedFrame | undefined {
  if ("method" in frame) return "request";
  if ("result" in frame || "error" in frame || typeof frame.__file_transport === "string") return "response";
  if ("jsonrpc" in frame || "id" in frame) return "message";
  return undefined;
}

/** A string, a number (one JavaScript cannot hold counts when its text was kept) or null. */
function isValidId(id: unknown, idText: string | undefined): boolean {
  return (
    typeof id === "string" ||
    (typeof id === "number" && (Number.isFinite(id) || idText !== undefined)) ||
    id === null
  );
}

function notAFrame(reason: NotAFrameReason, why: string): NotAFrameClass {
  return { kind: "not-a-frame", reason, why, replyId: null };
}
