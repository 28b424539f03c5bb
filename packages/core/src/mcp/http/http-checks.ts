/** Host names a loopback server is reached by: any other `Host` or `Origin` is a rebinding attempt. */
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "::1"];

/** The host names accepted in `Host` and `Origin`: loopback ones and those configured. */
export function allowedHostSet(extra: readonly string[] = []): ReadonlySet<string> {
  return new Set([...LOOPBACK_HOSTS, ...extra.map((host) => host.trim().toLowerCase()).filter(Boolean)]);
}

/** The host name of a `Host` header (`127.0.0.1:8080`, `[::1]:8080`), lower-cased, port dropped. */
export function hostnameOfHostHeader(header: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(header);
  if (bracketed) return (bracketed[1] as string).toLowerCase();
  return header.replace(/:\d+$/, "").toLowerCase();
}

/** Whether the `Host` header names this server by an allowed name (DNS rebinding guard). */
export function hostAllowed(header: string | undefined, allowed: ReadonlySet<string>): boolean {
  return header !== undefined && allowed.has(hostnameOfHostHeader(header));
}

/**
 * Whether the `Origin` header, when a browser sent one, may call: the page must be of the
 * server's own origin (the name and port the request's `Host` names, the port compared too,
 * so another local web server's page is refused) or be listed with its port (`host:port`)
 * among the allowed hosts. Clients that are not browsers send none, which is accepted.
 */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowed: ReadonlySet<string>,
): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const defaultPort = { "http:": "80", "https:": "443" }[url.protocol];
  if (defaultPort === undefined) return false;
  const name = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  const port = url.port || defaultPort;
  if (allowed.has(`${name}:${port}`)) return true;
  if (host === undefined || !allowed.has(name) || hostnameOfHostHeader(host) !== name) return false;
  return (/:(\d+)$/.exec(host.replace(/^\[[^\]]*\]/, ""))?.[1] ?? defaultPort) === port;
}

/** The media types an `Accept` header lists, without parameters. */
function acceptedTypes(accept: string | undefined): string[] {
  if (accept === undefined || accept.trim() === "") return ["*/*"];
  return accept.split(",").map((part) => (part.split(";")[0] as string).trim().toLowerCase());
}

/** What a POST's `Accept` lets the server answer with. */
export interface AcceptedAnswers {
  json: boolean;
  eventStream: boolean;
}

/** Reads `Accept`: a missing header or a wildcard accepts both JSON and an event stream. */
export function acceptedAnswers(accept: string | undefined): AcceptedAnswers {
  const types = acceptedTypes(accept);
  const any = types.includes("*/*");
  return {
    json: any || types.includes("application/json") || types.includes("application/*"),
    eventStream: any || types.includes("text/event-stream") || types.includes("text/*"),
  };
}

/** Whether a `Content-Type` header is JSON (`application/json`, any charset). */
export function isJsonContentType(header: string | undefined): boolean {
  return (header?.split(";")[0] ?? "").trim().toLowerCase() === "application/json";
}

/** Whether `Authorization` is `Bearer <token>`, compared in time independent of where they differ. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? "")?.[1] ?? "";
  let difference = given.length ^ token.length;
  for (let i = 0; i < token.length; i++) {
    difference |= token.charCodeAt(i) ^ given.charCodeAt(i % Math.max(given.length, 1));
  }
  return difference === 0;
}
