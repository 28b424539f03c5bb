import { classifyFrame, type FrameClass } from "@executa/core";

/** How a line the plugin wrote to stdout reads as protocol. */
export type StdoutLineKind =
  /** A JSON-RPC 2.0 frame (core's `classifyFrame`): a response, a request or a notification. */
  | "frame"
  /** Valid JSON, but not a JSON-RPC 2.0 frame (a JSON log line, a bare value, a broken frame). */
  | "json"
  /** Not JSON at all (a print, a banner). */
  | "text"
  /** Longer than the probe reads; never a usable frame. */
  | "oversized"
  /** Not UTF-8. */
  | "invalid-utf8";

/** One line the plugin wrote to stdout, as the probe saw it. */
export interface StdoutLine {
  kind: StdoutLineKind;
  /** The line (cut to {@link PREVIEW_CHARS}) or a description of it. */
  preview: string;
  bytes: number;
  /** The line's class, for a decoded line. */
  class?: FrameClass;
}

const PREVIEW_CHARS = 160;

/** Classifies one decoded stdout line. */
export function classifyLine(text: string): StdoutLine {
  const bytes = Buffer.byteLength(text);
  const preview = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
  const found = classifyFrame(text);
  return { kind: kindOf(found), preview, bytes, class: found };
}

function kindOf(found: FrameClass): StdoutLineKind {
  if (found.kind !== "not-a-frame") return "frame";
  return found.reason === "not-json" ? "text" : "json";
}
