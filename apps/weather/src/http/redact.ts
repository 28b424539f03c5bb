/** What replaces a secret in any text the plugin writes. */
export const REDACTED = "[redacted]";

/**
 * Replaces every occurrence of each secret (the API key, also URL-encoded) in `text`.
 * Empty secrets are ignored.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join(REDACTED);
  }
  return out;
}
