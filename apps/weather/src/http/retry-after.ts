/**
 * Seconds to wait from a `Retry-After` header: delay-seconds or an HTTP date (RFC 9110).
 * Undefined when absent or unreadable.
 */
export function retryAfterSeconds(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
