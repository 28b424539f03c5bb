import { MCP_HTTP_TOKEN_ENV, MCP_HTTP_TRUSTED_NETWORK_ENV } from "./http-address.js";
import { MCP_AUTH_ISSUER_ENV } from "./resource-server.js";

/** Whether `host` names this machine only: `localhost`, 127.0.0.0/8 or ::1 (IPv4-mapped too). */
export function isLoopbackHost(host: string): boolean {
  // node:net on first use: a plugin that never binds HTTP does not load it at start.
  const { isIP } = process.getBuiltinModule("node:net");
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  const v4 = name.replace(/^::ffff:/, "");
  if (isIP(v4) === 4) return v4.startsWith("127.");
  return isIP(name) === 6 && /^(?:0{0,4}:){2,7}0{0,3}1$/.test(name);
}

/**
 * Why serving on `host` would expose the tools to the network unguarded, or undefined when
 * it would not: a non-loopback interface needs a bearer token (`guard`: the static token,
 * or the issuer whose access tokens are verified), unless the network is declared trusted. The `Host` check stops browsers, not a peer that sends any `Host` it likes.
 */
export function exposureProblem(
  host: string,
  guard: string | undefined,
  trustedNetwork: boolean,
): string | undefined {
  if (isLoopbackHost(host) || guard !== undefined || trustedNetwork) return undefined;
  return (
    `refusing to serve MCP on ${host}, which other machines can reach, without a token: ` +
    `set ${MCP_HTTP_TOKEN_ENV} (clients then send Authorization: Bearer <token>) or ${MCP_AUTH_ISSUER_ENV} (OAuth access tokens), ` +
    `bind 127.0.0.1, ` +
    `or set ${MCP_HTTP_TRUSTED_NETWORK_ENV}=1 if every machine on that network may call the tools`
  );
}
