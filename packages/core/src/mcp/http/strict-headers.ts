import type { IncomingMessage } from "node:http";

/**
 * Headers that must appear at most once. node:http keeps the first of a repeated `Host`,
 * `Authorization` or `Content-Type` and joins the others; a server that reads one while a
 * proxy in front read another is open to request smuggling and guard bypasses, so a repeat
 * is refused outright (RFC 9112 §3.2 for `Host`, RFC 9110 §5.3 for the others).
 */
const SINGLE_HEADERS = new Set([
  "host",
  "authorization",
  "content-type",
  "origin",
  "mcp-session-id",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
]);

/** `host[:port]` as RFC 9112 allows it: a registered name, an IPv4 address or a bracketed IPv6 one. */
const HOST_VALUE = /^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._~%!$&'()*+,;=-]+)(?::\d{0,5})?$/;

/**
 * Why a request's header lines break HTTP/1.1's rules (RFC 9112 §3.2: an HTTP/1.1 request
 * without `Host`, a repeated `Host` or one with an invalid value is answered 400), or
 * undefined when they keep them.
 */
export function headerViolation(req: IncomingMessage): string | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = (req.rawHeaders[i] as string).toLowerCase();
    if (!SINGLE_HEADERS.has(name)) continue;
    if (seen.has(name)) return `the ${req.rawHeaders[i]} header is sent more than once; send it once`;
    seen.add(name);
  }
  const host = req.headers.host;
  if (host === undefined) {
    return req.httpVersion === "1.0" ? undefined : "the Host header is missing; HTTP/1.1 requires it";
  }
  if (!HOST_VALUE.test(host)) return `the Host header ${JSON.stringify(host)} is not a valid host[:port]`;
  return undefined;
}
