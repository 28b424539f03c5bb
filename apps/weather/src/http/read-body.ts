/** Largest response body read. Weather answers are a few KiB; anything near this is not one. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The body grew past the limit. */
export class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
  constructor(readonly limit: number) {
    super(`the response body is larger than ${limit} bytes`);
  }
}

/**
 * Reads a response body as UTF-8 text, at most `limit` bytes: a longer body is cancelled
 * and rejected with {@link BodyTooLargeError} rather than buffered whole.
 */
export async function readBody(response: Response, limit: number = MAX_BODY_BYTES): Promise<string> {
  if (!response.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}
