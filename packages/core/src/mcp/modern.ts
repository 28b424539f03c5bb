import { RpcError } from "../errors/rpc-error.js";
import { isObject } from "../manifest/manifest-issues.js";
import { MCP_PROTOCOL_VERSIONS } from "./versions.js";

/** The first revision of the modern MCP era: `server/discover` and a `_meta` envelope per request. */
export const MODERN_MCP_PROTOCOL_VERSION = "2026-07-28";

/** The modern revisions this server speaks, newest first. */
export const MODERN_MCP_PROTOCOL_VERSIONS = [MODERN_MCP_PROTOCOL_VERSION] as const;

/** Every revision this server speaks, as `server/discover` lists them: modern first. */
export const ALL_MCP_PROTOCOL_VERSIONS: readonly string[] = [
  ...MODERN_MCP_PROTOCOL_VERSIONS,
  ...MCP_PROTOCOL_VERSIONS,
];

/** `_meta` key of the per-request envelope naming the revision that governs the request. */
export const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion";
/** `_meta` key of the per-request envelope carrying the client's capabilities. */
export const CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities";
/** `_meta` key of the per-request envelope naming the client. */
export const CLIENT_INFO_META_KEY = "io.modelcontextprotocol/clientInfo";
/** `_meta` key of a result naming the server that produced it. */
export const SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo";

/** JSON-RPC error code of a request governed by a revision this server does not speak. */
export const UNSUPPORTED_PROTOCOL_VERSION_CODE = -32022;

/** Results whose methods are cacheable in the modern era carry `ttlMs` and `cacheScope`. */
const CACHEABLE_METHODS: ReadonlySet<string> = new Set(["tools/list", "server/discover"]);

/** What a request's `_meta` envelope says, when it has one. */
export interface ModernEnvelope {
  /** The revision the client says governs this request. */
  readonly protocolVersion: string;
  /** The capabilities the client declares on this request. */
  readonly clientCapabilities: Record<string, unknown>;
  /** The client's name and version, when given. */
  readonly clientInfo?: { name?: string; version?: string };
}

/** The `_meta` envelope of a request's params, or undefined for a request without one. */
export function modernEnvelope(params: unknown): ModernEnvelope | undefined {
  const meta = isObject(params) && isObject(params._meta) ? params._meta : undefined;
  const version = meta?.[PROTOCOL_VERSION_META_KEY];
  if (meta === undefined || typeof version !== "string") return undefined;
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  const info = meta[CLIENT_INFO_META_KEY];
  return {
    protocolVersion: version,
    clientCapabilities: isObject(capabilities) ? capabilities : {},
    ...(isObject(info) ? { clientInfo: info as ModernEnvelope["clientInfo"] } : {}),
  };
}

/** Whether a request's first frame marks an MCP client of the modern era. */
export function isModernFirstFrame(method: string, params: unknown): boolean {
  return method === "server/discover" || modernEnvelope(params) !== undefined;
}

/** Whether `version` is a revision of the modern era (revisions are ISO dates, so they sort as text). */
export function isModernRevision(version: string): boolean {
  return version >= MODERN_MCP_PROTOCOL_VERSION;
}

/** Whether this server speaks the modern revision `version`. */
export function speaksModern(version: string): boolean {
  return (MODERN_MCP_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** The error answering a request governed by revision `requested`, which this server does not speak. */
export function unsupportedRevisionError(requested: string): RpcError {
  return new RpcError(
    UNSUPPORTED_PROTOCOL_VERSION_CODE,
    `Unsupported protocol version ${requested}; this server speaks ${ALL_MCP_PROTOCOL_VERSIONS.join(", ")}`,
    { supported: [...ALL_MCP_PROTOCOL_VERSIONS], requested },
  );
}

/**
 * A result as the modern era requires it: `resultType: "complete"`, `ttlMs`/`cacheScope`
 * on cacheable lists (the tool list of a process never changes, but a client may be
 * pointed at a newer binary: no caching, the era's default) and the server named in `_meta`.
 */
export function modernResult(
  method: string,
  result: unknown,
  serverInfo: { name: string; version: string },
): unknown {
  if (!isObject(result)) return result;
  const stamped: Record<string, unknown> = { resultType: "complete", ...result };
  if (CACHEABLE_METHODS.has(method)) {
    stamped.ttlMs ??= 0;
    stamped.cacheScope ??= "private";
  }
  const meta = isObject(stamped._meta) ? stamped._meta : {};
  stamped._meta = { [SERVER_INFO_META_KEY]: serverInfo, ...meta };
  return stamped;
}
