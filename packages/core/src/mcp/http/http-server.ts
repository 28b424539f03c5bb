import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { serializeErrorFrame } from "../../errors/error-frame.js";
import type { Logger } from "../../log/logger.js";
import type { IncomingRequest } from "../../rpc/peer.js";
import { JsonRpcErrorCode } from "../../wire/error-codes.js";
import type { RequestId } from "../../wire/jsonrpc.js";
import { MAX_FRAME_BYTES } from "../../wire/limits.js";
import type { McpServerSide, McpSession } from "../mcp-session.js";
import {
  ALL_MCP_PROTOCOL_VERSIONS,
  isModernRevision,
  modernEnvelope,
  speaksModern,
  unsupportedRevisionError,
} from "../modern.js";
import { capConnections, type McpHttpLimits, resolveLimits, timeoutOptions } from "./connection-limits.js";
import { MCP_HTTP_PATH, type McpHttpAddress } from "./http-address.js";
import {
  type AcceptedAnswers,
  acceptedAnswers,
  allowedHostSet,
  bearerMatches,
  hostAllowed,
  isJsonContentType,
  originAllowed,
} from "./http-checks.js";
import { McpHttpSettingError } from "./http-env.js";
import { exposureProblem } from "./http-exposure.js";
import { HttpExchange, HttpMcpSession } from "./http-session.js";
import { LegacySessions } from "./legacy-sessions.js";
import { modernHeaderMismatch } from "./modern-headers.js";
import { callerKey, RateGate, type RateLimitSettings } from "./rate-limit.js";
import { INVALID, Refusal, refuse, TRANSPORT_ERROR } from "./refusal.js";
import { AuthRefusal, type Grant, type McpAuthSettings, ResourceServer } from "./resource-server.js";
import { openRedisSessionStore } from "./shared/redis-session-store.js";
import {
  type ClientResponse,
  localSessionStore,
  type RelayedMessage,
  type SessionStore,
} from "./shared/session-store.js";
import { resumeStream } from "./stream-resume.js";
import { headerViolation } from "./strict-headers.js";

/** What the HTTP endpoint needs of the plugin server it fronts. */
export interface McpHttpBackend {
  /** Opens an MCP session whose tool calls run on the server's path. */
  openMcpSession(link: Pick<McpServerSide, "request" | "notify">): McpSession;
  /** True once the server began to stop: new requests are refused with 503. */
  readonly stopping: boolean;
  /** Whether what the tools depend on is reachable (a database); `/readyz` is 503 when not. */
  ready?(): Promise<boolean>;
}

/** Options of {@link serveMcpHttp}. */
export interface McpHttpOptions {
  readonly address: McpHttpAddress;
  /** Where the endpoint logs; hostile traffic can make every request log, so give it a budget. */
  readonly log: Logger;
  /**
   * Bearer token every request must carry (`Authorization: Bearer …`); none required when
   * absent, which only a loopback address or a trusted network allows.
   */
  readonly token?: string;
  /**
   * Act as an OAuth 2.1 resource server: publish protected-resource metadata and accept
   * only the issuer's access tokens for this resource. Exclusive with {@link token}.
   */
  readonly auth?: McpAuthSettings;
  /** The scopes each tool needs of an access token, by tool name (with {@link auth}). */
  readonly toolScopes?: Readonly<Record<string, readonly string[]>>;
  /**
   * Host names accepted in `Host` and `Origin` besides the loopback ones; a `host:port`
   * entry also admits browser pages of that origin (a web client served on another port).
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Serve a non-loopback address without a token: every machine that reaches it may call
   * the tools. Without it, such an address and no token is refused.
   */
  readonly trustedNetwork?: boolean;
  /** Limits replacing the defaults ({@link MCP_HTTP_DEFAULT_LIMITS}). */
  readonly limits?: Partial<McpHttpLimits>;
  /**
   * `redis://` URL of a Redis that replicas share: legacy sessions, their streams' events
   * and cancellations then live there, so any replica serves any request. Needs the
   * `ioredis` package, loaded only when this is set.
   */
  readonly redisUrl?: string;
  /** Requests each caller may make (429 beyond); none limited when absent. */
  readonly rateLimit?: RateLimitSettings;
}

/** A running MCP Streamable HTTP endpoint. */
export interface McpHttpServer {
  /** `http://HOST:PORT/mcp`, with the port actually bound. */
  readonly url: string;
  /** Stops listening, waits for answers still being written, then closes every connection. */
  close(): Promise<void>;
}

const SESSION_HEADER = "mcp-session-id";
/** Liveness and readiness for load balancers: answered to anyone, revealing nothing but status. */
const HEALTH_PATH = "/healthz";
const READY_PATH = "/readyz";

/** One JSON-RPC message as POSTed. */
type Message = {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: unknown;
};

/**
 * The `/mcp` endpoint: sessions issued on `initialize` (`Mcp-Session-Id`, required after,
 * 404 once unknown or expired, ended by DELETE), modern-era requests without a session,
 * `Host`/`Origin` checked against DNS rebinding, an optional bearer token, size and media
 * type checks, JSON answers unless the call has to stream.
 */
class McpHttpEndpoint {
  private readonly sessions: LegacySessions;
  private modern: HttpMcpSession | undefined;
  private readonly allowed: ReadonlySet<string>;
  private readonly open = new Set<ServerResponse>();
  private readonly maxBody: number;
  private readonly resourceServer: ResourceServer | undefined;

  constructor(
    private readonly backend: McpHttpBackend,
    private readonly options: McpHttpOptions & {
      readonly limits: McpHttpLimits;
      readonly rateGate?: RateGate;
    },
    readonly store: SessionStore,
  ) {
    this.allowed = allowedHostSet(options.allowedHosts);
    this.maxBody = options.limits.maxBodyBytes;
    const open = (id: string) => new HttpMcpSession(id, (link) => backend.openMcpSession(link), options.log);
    const { maxSessions, sessionIdleMs } = options.limits;
    this.sessions = new LegacySessions(store, open, maxSessions, sessionIdleMs, options.log);
    const scopes = [...new Set(Object.values(options.toolScopes ?? {}).flat())].sort();
    this.resourceServer = options.auth && new ResourceServer(options.auth, scopes);
  }

  /** Answers one HTTP request; nothing it does can stop the others being served. */
  serve(req: IncomingMessage, res: ServerResponse): void {
    this.open.add(res);
    res.once("close", () => this.open.delete(res));
    this.route(req, res).catch((error: unknown) => {
      if (error instanceof Refusal) return refuse(res, error);
      if (error instanceof AuthRefusal) {
        return refuse(
          res,
          new Refusal(error.status, TRANSPORT_ERROR, error.message, { "www-authenticate": error.challenge }),
        );
      }
      if (req.socket.destroyed) {
        // An ordinary abort (or a request cut off for arriving too slowly): nothing to answer.
        this.options.log.info(`MCP HTTP client went away before its request was read: ${String(error)}`);
        return;
      }
      this.options.log.error(`MCP HTTP request failed: ${(error as Error)?.stack ?? String(error)}`);
      refuse(res, new Refusal(500, JsonRpcErrorCode.INTERNAL_ERROR, "Internal error"));
    });
  }

  /** Responses not yet fully written. */
  get openResponses(): number {
    return this.open.size;
  }

  /** Idle time after which a session expires. */
  get idleMs(): number {
    return this.sessions.idleMs;
  }

  /** Drops sessions idle for longer than allowed. */
  expireIdle(): void {
    this.sessions.expireIdle();
  }

  /** Ends every session (the server is closing). */
  closeSessions(): void {
    this.sessions.closeAll();
  }

  /** A message another replica relayed to this one's sessions. */
  relayed(message: RelayedMessage): void {
    this.sessions.relayed(message);
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "").split("?")[0] ?? "";
    if (path === HEALTH_PATH || path === READY_PATH) return this.health(req, res, path);
    this.checkCaller(req);
    if (this.resourceServer?.servesMetadataAt(path)) return this.metadata(req, res, this.resourceServer);
    const grant = this.resourceServer && (await this.authorize(req, this.resourceServer));
    const limited = await this.options.rateGate?.admit(callerKey(req, grant));
    if (limited) {
      throw new Refusal(limited.status, TRANSPORT_ERROR, limited.message, {
        "retry-after": String(limited.retryAfterSeconds),
      });
    }
    if (path !== MCP_HTTP_PATH) {
      throw new Refusal(404, INVALID, `Not found: MCP is served at ${MCP_HTTP_PATH}`);
    }
    if (req.method === "POST") return this.post(req, res, grant);
    if (req.method === "DELETE") return this.end(req, res);
    if (req.method === "GET") return resumeStream(req, res, this.sessions, SESSION_HEADER);
    throw new Refusal(
      405,
      TRANSPORT_ERROR,
      `Method ${req.method} not allowed: POST requests, DELETE ends a session`,
      {
        allow: "POST, DELETE",
      },
    );
  }

  /** The grant of the request's token; 503 when the issuer's keys cannot be had (not the caller's fault). */
  private async authorize(req: IncomingMessage, resourceServer: ResourceServer): Promise<Grant> {
    try {
      return await resourceServer.authorize(req.headers.authorization);
    } catch (error) {
      if (error instanceof AuthRefusal) throw error;
      this.options.log.error(`cannot verify access tokens: ${(error as Error).message}`);
      throw new Refusal(
        503,
        TRANSPORT_ERROR,
        "Service Unavailable: the authorization server's keys cannot be fetched; retry later",
        { "retry-after": "5" },
      );
    }
  }

  /**
   * `/healthz`: 200 while the process serves; `/readyz`: 503 once it began to stop
   * (draining), or while the shared session state or what the tools depend on (a database)
   * cannot be reached (unavailable).
   */
  private async health(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method !== "GET" && req.method !== "HEAD") {
      throw new Refusal(405, TRANSPORT_ERROR, `Method ${req.method} not allowed: GET`, {
        allow: "GET, HEAD",
      });
    }
    const status = path === READY_PATH ? await this.readiness() : "ok";
    res
      .writeHead(status === "ok" ? 200 : 503, {
        "content-type": "application/json",
        "cache-control": "no-store",
      })
      .end(JSON.stringify({ status }));
  }

  /** `/readyz`'s status: draining once stopping, unavailable while Redis or a dependency is unreachable. */
  private async readiness(): Promise<"ok" | "draining" | "unavailable"> {
    if (this.backend.stopping) return "draining";
    if (!(await this.store.ready())) return "unavailable";
    return (await this.backend.ready?.()) === false ? "unavailable" : "ok";
  }

  /** The protected-resource metadata (RFC 9728), public: clients read it to find the issuer. */
  private metadata(req: IncomingMessage, res: ServerResponse, resourceServer: ResourceServer): void {
    if (req.method !== "GET" && req.method !== "HEAD") {
      throw new Refusal(405, TRANSPORT_ERROR, `Method ${req.method} not allowed: GET`, {
        allow: "GET, HEAD",
      });
    }
    res
      .writeHead(200, { "content-type": "application/json", "cache-control": "max-age=3600" })
      .end(JSON.stringify(resourceServer.metadata()));
  }

  /** Refuses requests while stopping, from other origins or hosts, and without the token. */
  private checkCaller(req: IncomingMessage): void {
    if (this.backend.stopping) {
      throw new Refusal(503, TRANSPORT_ERROR, "Server is shutting down; retry on a new instance", {
        connection: "close",
      });
    }
    const violation = headerViolation(req);
    if (violation) throw new Refusal(400, INVALID, `Bad Request: ${violation}`, { connection: "close" });
    if (!hostAllowed(req.headers.host, this.allowed)) {
      throw new Refusal(
        403,
        TRANSPORT_ERROR,
        `Host ${JSON.stringify(req.headers.host)} not allowed (DNS rebinding guard); list it in EXECUTA_MCP_HTTP_ALLOWED_HOSTS`,
      );
    }
    if (!originAllowed(req.headers.origin, req.headers.host, this.allowed)) {
      throw new Refusal(
        403,
        TRANSPORT_ERROR,
        `Origin ${JSON.stringify(req.headers.origin)} not allowed: only pages of this server's own origin (host and port) may call (DNS rebinding guard); list it as host:port in EXECUTA_MCP_HTTP_ALLOWED_HOSTS`,
      );
    }
    const { token } = this.options;
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
      throw new Refusal(
        401,
        TRANSPORT_ERROR,
        "Unauthorized: send Authorization: Bearer <EXECUTA_MCP_HTTP_TOKEN>",
        {
          "www-authenticate": 'Bearer realm="mcp"',
        },
      );
    }
  }

  private async post(req: IncomingMessage, res: ServerResponse, grant: Grant | undefined): Promise<void> {
    if (!isJsonContentType(req.headers["content-type"])) {
      throw new Refusal(415, INVALID, "Unsupported Media Type: send Content-Type: application/json");
    }
    const accepts = acceptedAnswers(req.headers.accept);
    if (!accepts.json && !accepts.eventStream) {
      throw new Refusal(406, INVALID, "Not Acceptable: Accept application/json and text/event-stream");
    }
    checkProtocolVersionHeader(req.headers["mcp-protocol-version"]);
    const message = parseMessage(await readBody(req, this.maxBody));
    const requested = unspokenModernRevision(req.headers["mcp-protocol-version"], message.params);
    if (requested !== undefined) return answerUnspoken(res, message, requested);
    if (typeof message.method !== "string") return this.postResponse(req, res, message);
    const request = message as IncomingRequest;
    const mismatch = modernHeaderMismatch(
      req.headers,
      request.method,
      request.params,
      request.id !== undefined,
    );
    if (mismatch) throw new Refusal(400, mismatch.code, mismatch.message);
    if (grant && request.method === "tools/call") this.checkToolScopes(grant, request.params);
    const session = await this.sessionFor(req, request);
    if (request.id === undefined) {
      if (session === this.modern) session.notify(request);
      else this.sessions.notify(session, request);
      res.writeHead(202).end();
      return;
    }
    await this.answer(res, session, request as IncomingRequest & { id: RequestId }, accepts);
  }

  /** A tool declaring scopes is called only with a token granting them all (403 otherwise). */
  private checkToolScopes(grant: Grant, params: unknown): void {
    const name = (params as { name?: unknown } | undefined)?.name;
    const required = typeof name === "string" ? this.options.toolScopes?.[name] : undefined;
    if (required && Object.hasOwn(this.options.toolScopes ?? {}, name as string)) {
      this.resourceServer?.requireScopes(grant, required, `tool ${name}`);
    }
  }

  private async answer(
    res: ServerResponse,
    session: HttpMcpSession,
    request: IncomingRequest & { id: RequestId },
    accepts: AcceptedAnswers,
  ): Promise<void> {
    const headers: Record<string, string> = session === this.modern ? {} : { [SESSION_HEADER]: session.id };
    const log = () => (session === this.modern ? undefined : this.store.openStream(session.id, request.id));
    const exchange = new HttpExchange(res, accepts, headers, log);
    res.once("close", () => {
      if (!exchange.answered) session.vanished(exchange);
    });
    const ok = await session.answer(request, exchange);
    if (request.method === "initialize" && !ok) this.sessions.discard(session.id);
  }

  /** A response to a request this server sent: routed to its session. */
  private async postResponse(req: IncomingMessage, res: ServerResponse, message: Message): Promise<void> {
    const isResponse =
      (typeof message.id === "string" || typeof message.id === "number") &&
      ("result" in message || "error" in message);
    if (!isResponse)
      throw new Refusal(400, INVALID, "Invalid Request: a JSON-RPC request, notification or response");
    const session = await this.existingSession(req);
    if (session === this.modern) {
      if (!session.settle(message as ClientResponse)) {
        this.options.log.warn(`dropped a response for unknown id ${JSON.stringify(message.id)}`);
      }
    } else this.sessions.settle(session, message as ClientResponse);
    res.writeHead(202).end();
  }

  /** The session a request belongs to: a new one for `initialize`, the modern one without a header. */
  private sessionFor(
    req: IncomingMessage,
    request: IncomingRequest,
  ): Promise<HttpMcpSession> | HttpMcpSession {
    if (request.method === "initialize") {
      if (req.headers[SESSION_HEADER] !== undefined) {
        throw new Refusal(400, INVALID, "initialize opens a new session: send it without Mcp-Session-Id");
      }
      return this.sessions.begin(request.params);
    }
    if (req.headers[SESSION_HEADER] !== undefined) return this.existingSession(req);
    if (request.method === "server/discover" || modernEnvelope(request.params) !== undefined) {
      this.modern ??= new HttpMcpSession(
        "modern",
        (link) => this.backend.openMcpSession(link),
        this.options.log,
        "shared",
      );
      return this.modern;
    }
    throw new Refusal(
      400,
      TRANSPORT_ERROR,
      "Bad Request: Mcp-Session-Id header required; send initialize first",
    );
  }

  private existingSession(req: IncomingMessage): Promise<HttpMcpSession> | HttpMcpSession {
    const id = req.headers[SESSION_HEADER];
    if (id === undefined && this.modern) return this.modern;
    return this.sessions.find(typeof id === "string" ? id : "");
  }

  /** DELETE: ends the session named by `Mcp-Session-Id`. */
  private async end(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = req.headers[SESSION_HEADER];
    if (typeof id !== "string")
      throw new Refusal(400, TRANSPORT_ERROR, "Bad Request: DELETE needs Mcp-Session-Id");
    await this.sessions.end(id);
    res.writeHead(200).end();
  }
}

/**
 * A `MCP-Protocol-Version` header naming a revision this server does not speak is refused;
 * a modern one is answered once the body is read (see {@link unspokenModernRevision}).
 */
function checkProtocolVersionHeader(header: string | string[] | undefined): void {
  if (typeof header !== "string" || ALL_MCP_PROTOCOL_VERSIONS.includes(header) || isModernRevision(header))
    return;
  throw new Refusal(
    400,
    INVALID,
    `Unsupported MCP-Protocol-Version ${JSON.stringify(header)}; this server speaks ${ALL_MCP_PROTOCOL_VERSIONS.join(", ")}`,
  );
}

/**
 * The modern revision a request claims, in its `MCP-Protocol-Version` header or its `_meta`
 * envelope, when this server does not speak it.
 */
function unspokenModernRevision(header: string | string[] | undefined, params: unknown): string | undefined {
  const claimed = [typeof header === "string" ? header : undefined, modernEnvelope(params)?.protocolVersion];
  return claimed.find(
    (version) => version !== undefined && isModernRevision(version) && !speaksModern(version),
  );
}

/**
 * Answers a message governed by a modern revision this server does not speak with -32022
 * and the revisions it does, its id kept (as over stdio), so the client can renegotiate.
 */
function answerUnspoken(res: ServerResponse, message: Message, requested: string): void {
  const id = typeof message.id === "string" || typeof message.id === "number" ? message.id : null;
  const frame = serializeErrorFrame(id, unsupportedRevisionError(requested).toJSON(), MAX_FRAME_BYTES);
  res.writeHead(400, { "content-type": "application/json" }).end(frame);
}

/**
 * Reads the body up to `max` bytes; a larger one is refused with 413 and the rest read and
 * discarded (closing at once would cut the client off before it reads the answer).
 */
function readBody(req: IncomingMessage, max: number): Promise<string> {
  const tooLarge = () =>
    new Refusal(413, INVALID, `Payload Too Large: the body exceeds ${max} bytes; send smaller requests`);
  if (Number(req.headers["content-length"] ?? 0) > max) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
      else {
        req.off("data", onData);
        req.resume();
        reject(tooLarge());
      }
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.once("error", reject);
  });
}

/** Parses one JSON-RPC message: 400 with a parse error for bad JSON, an invalid request for a batch or non-object. */
function parseMessage(body: string): Message {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw new Refusal(400, JsonRpcErrorCode.PARSE_ERROR, `Parse error: ${(error as Error).message}`);
  }
  if (Array.isArray(parsed)) {
    throw new Refusal(400, INVALID, "Invalid Request: batches are not supported; send one message per POST");
  }
  if (typeof parsed !== "object" || parsed === null || (parsed as Message).jsonrpc !== "2.0") {
    throw new Refusal(400, INVALID, 'Invalid Request: send a JSON-RPC 2.0 object with "jsonrpc": "2.0"');
  }
  const { id } = parsed as Message;
  if (id !== undefined && typeof id !== "string" && typeof id !== "number") {
    throw new Refusal(400, INVALID, "Invalid Request: id must be a string or a number");
  }
  return parsed as Message;
}

/**
 * Serves the plugin's tools over MCP Streamable HTTP at `http://HOST:PORT/mcp` with
 * node:http (loaded here, so a stdio plugin never loads it).
 */
export async function serveMcpHttp(backend: McpHttpBackend, options: McpHttpOptions): Promise<McpHttpServer> {
  if (options.token !== undefined && options.auth !== undefined) {
    throw new McpHttpSettingError(
      "a static token and an issuer are both configured: accept one kind of bearer token, not both",
    );
  }
  const exposed = exposureProblem(
    options.address.host,
    options.token ?? options.auth?.issuer,
    options.trustedNetwork ?? false,
  );
  if (exposed) throw new McpHttpSettingError(exposed);
  const limits = resolveLimits(options.limits);
  const { createServer } = await import("node:http");
  let endpoint: McpHttpEndpoint | undefined;
  const store =
    options.redisUrl === undefined
      ? localSessionStore()
      : await openRedisSessionStore({
          url: options.redisUrl,
          sessionTtlMs: limits.sessionIdleMs,
          log: options.log,
          onRelayed: (message) => endpoint?.relayed(message),
        });
  const rateGate = options.rateLimit && (await RateGate.open(options.rateLimit, options.log));
  endpoint = new McpHttpEndpoint(backend, { ...options, limits, ...(rateGate && { rateGate }) }, store);
  const server = createServer(timeoutOptions(limits), (req, res) => endpoint.serve(req, res));
  capConnections(server, limits.maxConnections, (what) =>
    options.log.warn(`MCP HTTP ${what}: ${limits.maxConnections} connections open`),
  );
  await listen(server, options.address);
  const bound = server.address();
  const port = typeof bound === "object" && bound !== null ? bound.port : options.address.port;
  const host = options.address.host.includes(":") ? `[${options.address.host}]` : options.address.host;
  const url = `http://${host}:${port}${MCP_HTTP_PATH}`;
  const sweep = setInterval(() => endpoint.expireIdle(), Math.min(60_000, endpoint.idleMs / 2));
  sweep.unref();
  options.log.info(`serving MCP over Streamable HTTP at ${url}`);
  return {
    url,
    close: () => closeServer(server, endpoint, sweep).then(() => rateGate?.close()),
  };
}

function listen(server: Server, address: McpHttpAddress): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(address.port, address.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Stops listening, lets answers still being written finish (up to 2 s), then closes every connection. */
async function closeServer(server: Server, endpoint: McpHttpEndpoint, sweep: NodeJS.Timeout): Promise<void> {
  clearInterval(sweep);
  server.close();
  const until = Date.now() + 2_000;
  while (endpoint.openResponses > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  endpoint.closeSessions();
  server.closeAllConnections();
  await endpoint.store.close();
}
