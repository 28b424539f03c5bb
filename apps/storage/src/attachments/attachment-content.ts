import { InvalidParamsError } from "@executa/core";

// Standard or URL-safe alphabet, padding optional; whitespace is removed first.
const BASE64 = /^(?:[A-Za-z0-9+/_-]{4})*(?:[A-Za-z0-9+/_-]{2}(?:==)?|[A-Za-z0-9+/_-]{3}=?)?$/;

/**
 * The bytes of an attachment given as exactly one of `text` (stored as UTF-8) or
 * `base64`. Anything else — both, neither, or Base64 with characters outside the
 * alphabet — is an invalid-params error naming the argument.
 */
export function attachmentBytes(
  tool: string,
  text: string | undefined,
  base64: string | undefined,
): Uint8Array {
  if ((text === undefined) === (base64 === undefined)) {
    const message =
      text === undefined ? "give the content as text or as base64" : "give text or base64, not both";
    throw new InvalidParamsError(`Invalid arguments for tool "${tool}": ${message}`, [
      { path: text === undefined ? "text" : "base64", message, expected: "exactly one of text, base64" },
    ]);
  }
  if (text !== undefined) return new TextEncoder().encode(text);
  const compact = (base64 as string).replace(/\s+/g, "");
  if (!BASE64.test(compact)) {
    const message = "is not valid Base64 (A–Z, a–z, 0–9, + / or - _, optional = padding)";
    throw new InvalidParamsError(`Invalid arguments for tool "${tool}": base64 ${message}`, [
      { path: "base64", message, expected: "Base64 text" },
    ]);
  }
  return new Uint8Array(Buffer.from(compact, "base64"));
}
