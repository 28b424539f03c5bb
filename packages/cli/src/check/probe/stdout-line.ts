/** How a line the plugin wrote to stdout reads as protocol. */
export type StdoutLineKind =
  /** A JSON object with `"jsonrpc": "2.0"`: a response, a request or a notification. */
  | "frame"
  /** Valid JSON, but not a JSON-RPC 2.0 object (a JSON log line, a bare value). */
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
  /** The parsed frame, for `kind: "frame"`. */
  frame?: Record<string, unknown>;
}

const PREVIEW_CHARS = 160;

/** Classifies one decoded stdout line. */
export function classifyLine(text: string): StdoutLine {
  const bytes = Buffer.byteLength(text);
  const preview = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "text", preview, bytes };
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const frame = value as Record<string, unknown>;
    if (frame.jsonrpc === "2.0") return { kind: "frame", preview, bytes, frame };
  }
  return { kind: "json", preview, bytes };
}
