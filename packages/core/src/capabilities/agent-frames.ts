/**
 * The frames of one `agent/session.run`, typed. The host buffers the run's event stream
 * and answers `{ run_id, stream_id, frames: [...], final }`; each frame names its kind in
 * `event`. A run opens with `run_meta` (host ≥ 1.1.0-beta.45), streams text as `token`
 * (some producers say `delta` or `message`), may carry a `final` frame with the whole
 * text, and ends with `complete` (or `error`).
 */

/** A structured warning of `run_meta`, e.g. `NO_TOOLS_AVAILABLE`. */
export interface AgentRunWarning {
  code: "NO_TOOLS_AVAILABLE" | (string & {});
  message: string;
  [key: string]: unknown;
}

/** The warning code of a run whose session resolved no executable tool (text only). */
export const NO_TOOLS_AVAILABLE = "NO_TOOLS_AVAILABLE";

/** The first frame of a run: the tools the session can really execute, and warnings. */
export interface AgentRunMetaFrame {
  event: "run_meta";
  run_id?: string;
  app_session_uuid?: string;
  submode?: string;
  /** `["*"]`: the session inherits the user's host tools; `[]`: text only. */
  granted_tools: string[];
  /** Sent by hosts ≥ 1.1.0-beta.45; inferred from `"*"` in `granted_tools` otherwise. */
  inherit_host_tools: boolean;
  warnings: AgentRunWarning[];
  [key: string]: unknown;
}

/** A piece of the answer's text. */
export interface AgentTokenFrame {
  event: "token" | "delta" | "message";
  text: string;
  [key: string]: unknown;
}

/** The whole answer, when the producer sends one (its `text` may be absent). */
export interface AgentFinalFrame {
  event: "final";
  text?: string;
  usage?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The run ended normally. */
export interface AgentCompleteFrame {
  event: "complete";
  [key: string]: unknown;
}

/** The run failed on the host's side. */
export interface AgentErrorFrame {
  event: "error";
  code?: number | string;
  message?: string;
  [key: string]: unknown;
}

/** A frame of a kind this toolkit does not know (e.g. a tool step); `name` is its `event`. */
export interface AgentOtherFrame {
  event: "other";
  /** The frame's `event` as the host sent it (empty when it sent none). */
  name: string;
  /** The frame as the host sent it. */
  data: Record<string, unknown>;
}

/** One frame of an agent run, discriminated by `event`. */
export type AgentRunFrame =
  | AgentRunMetaFrame
  | AgentTokenFrame
  | AgentFinalFrame
  | AgentCompleteFrame
  | AgentErrorFrame
  | AgentOtherFrame;

const TOKEN_EVENTS = new Set(["token", "delta", "message"]);

/**
 * A wire frame as an {@link AgentRunFrame}. A frame wrapped in an SSE envelope
 * (`{ payload: { event, … } }`) is unwrapped; an unknown `event` becomes `"other"`.
 */
export function toAgentFrame(raw: Record<string, unknown>): AgentRunFrame {
  const frame = unwrapPayload(raw);
  const event = typeof frame.event === "string" ? frame.event : "";
  if (event === "run_meta") return runMeta(frame);
  if (TOKEN_EVENTS.has(event)) {
    return { ...frame, event: event as AgentTokenFrame["event"], text: stringOr(frame.text, "") };
  }
  if (event === "final" || event === "complete" || event === "error") {
    return { ...frame, event } as AgentFinalFrame | AgentCompleteFrame | AgentErrorFrame;
  }
  return { event: "other", name: event, data: frame };
}

function unwrapPayload(raw: Record<string, unknown>): Record<string, unknown> {
  const payload = raw.payload;
  if (raw.event === undefined && typeof payload === "object" && payload !== null && !Array.isArray(payload)) {
    return payload as Record<string, unknown>;
  }
  return raw;
}

function runMeta(frame: Record<string, unknown>): AgentRunMetaFrame {
  const granted = grantedTools(frame.granted_tools);
  const warnings = Array.isArray(frame.warnings)
    ? frame.warnings
        .filter((w): w is Record<string, unknown> => typeof w === "object" && w !== null)
        .map((w) => ({ ...w, code: stringOr(w.code, ""), message: stringOr(w.message, "") }))
    : [];
  return {
    ...frame,
    event: "run_meta",
    granted_tools: granted,
    inherit_host_tools: inheritsHostTools(frame.inherit_host_tools, granted),
    warnings,
  };
}

/** `granted_tools` as a list of strings (anything else counts as none). */
export function grantedTools(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((tool): tool is string => typeof tool === "string") : [];
}

/**
 * Whether a session inherits the user's host tools: the host's `inherit_host_tools` when
 * it sent a boolean, else whether `granted_tools` holds the `"*"` sentinel (older hosts).
 */
export function inheritsHostTools(sent: unknown, granted: readonly string[]): boolean {
  return typeof sent === "boolean" ? sent : granted.includes("*");
}

/** The answer's text: the `token` frames joined, or a `final` frame's text when there are none. */
export function runText(frames: readonly AgentRunFrame[]): string {
  let joined = "";
  let final: string | undefined;
  for (const frame of frames) {
    if (frame.event === "token" || frame.event === "delta" || frame.event === "message") joined += frame.text;
    else if (frame.event === "final" && typeof frame.text === "string" && frame.text.trim() !== "") {
      final = frame.text;
    }
  }
  return joined !== "" ? joined : (final ?? "");
}

/** Every `run_meta` warning of a run, in order. */
export function runWarnings(frames: readonly AgentRunFrame[]): AgentRunWarning[] {
  return frames.flatMap((frame) => (frame.event === "run_meta" ? frame.warnings : []));
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}
