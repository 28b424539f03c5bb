import type { JsonRpcErrorObject, RequestId } from "../wire/jsonrpc.js";
import { ERROR_MESSAGE_MAX_CHARS } from "../wire/limits.js";
import { previewText } from "./preview.js";

/**
 * One error frame, serialized, never larger than `maxBytes`: when `error.data` cannot be
 * serialized, or makes the frame too large, the frame goes without it (saying so in
 * `data.data_omitted`) and with the message cut — a host drops an over-ceiling line,
 * which would leave the request unanswered until its timeout.
 */
export function serializeErrorFrame(
  id: RequestId | null,
  error: JsonRpcErrorObject,
  maxBytes: number,
): string {
  let serialized: string | undefined;
  try {
    serialized = JSON.stringify({ jsonrpc: "2.0", id, error });
  } catch {
    serialized = undefined;
  }
  if (
    serialized !== undefined &&
    (serialized.length <= maxBytes / 3 || Buffer.byteLength(serialized) <= maxBytes)
  )
    return serialized;
  const reason = serialized === undefined ? "unserializable" : "too_large";
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    error: {
      code: error.code,
      message: previewText(String(error.message), ERROR_MESSAGE_MAX_CHARS),
      ...(error.data === undefined ? {} : { data: { data_omitted: reason } }),
    },
  });
}
