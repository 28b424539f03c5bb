import { ERROR_ECHO_MAX_CHARS } from "../wire/limits.js";

/**
 * `text` as it may be echoed in an error: unchanged when short, else its first `max`
 * characters followed by `…` and its full length — so an error about a 9 MiB tool name
 * stays small.
 */
export function previewText(text: string, max: number = ERROR_ECHO_MAX_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length} chars)`;
}
