/**
 * A random UUID from the global Web Crypto object, which Node loads on first use, so
 * that a plugin that never sends a request does not pay for loading node:crypto at
 * start.
 */
export function uniqueId(): string {
  return globalThis.crypto.randomUUID();
}
