import type { IncomingMessage, Server, ServerOptions, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * The bounds that keep the MCP HTTP endpoint serving under hostile or broken traffic:
 * how long a request may take to arrive, how many connections and sessions may be open,
 * how large a body may be and how long an unused session lives.
 */
export interface McpHttpLimits {
  /** Time a connection has to send a request's headers (408 and closed after): 10 s. */
  readonly headersTimeoutMs: number;
  /**
   * Time a request has to arrive whole, headers and body (408 and closed after), so a
   * body sent slowly or a chunked body never finished cannot hold a connection: 30 s.
   */
  readonly bodyTimeoutMs: number;
  /** Time a kept-alive connection may wait for its next request before it is closed: 5 s. */
  readonly idleTimeoutMs: number;
  /**
   * Connections open at once: 512. One more evicts the connection stalled longest (silent,
   * still sending its request, or idle between requests); when every one is answering a
   * request, the new one is closed at once.
   */
  readonly maxConnections: number;
  /**
   * Sessions open at once. An `initialize` beyond it evicts the oldest session that was
   * never used after its `initialize`; when every session is in use it is refused with 503: 1,000.
   */
  readonly maxSessions: number;
  /** Largest request body (413 beyond): 4 MiB. */
  readonly maxBodyBytes: number;
  /** Time a session may stay without requests before it expires (404 after): 30 minutes. */
  readonly sessionIdleMs: number;
}

/** The limits used where none are given (see each field of {@link McpHttpLimits}). */
export const MCP_HTTP_DEFAULT_LIMITS: McpHttpLimits = Object.freeze({
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 30_000,
  idleTimeoutMs: 5_000,
  maxConnections: 512,
  maxSessions: 1_000,
  maxBodyBytes: 4 * 1024 * 1024,
  sessionIdleMs: 30 * 60 * 1000,
});

/** The defaults with the given limits in their place. */
export function resolveLimits(given: Partial<McpHttpLimits> = {}): McpHttpLimits {
  const limits = { ...MCP_HTTP_DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(given) as [keyof McpHttpLimits, number | undefined][]) {
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RangeError(`MCP HTTP limit ${key} must be a positive integer, got ${value}`);
    }
    limits[key] = value;
  }
  return limits;
}

/**
 * The node:http server options that enforce the timeouts: node answers 408 and closes a
 * connection whose headers or whole request are late, and closes idle kept-alive ones.
 */
export function timeoutOptions(limits: McpHttpLimits): ServerOptions {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.bodyTimeoutMs);
  return {
    headersTimeout,
    requestTimeout: limits.bodyTimeoutMs,
    keepAliveTimeout: limits.idleTimeoutMs,
    // How often node looks for late requests; its 30 s default would let a short timeout slip.
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 2))),
  };
}

/**
 * Caps the connections open at once, so a flood of connections cannot exhaust the process's
 * file descriptors, without letting it lock new clients out: a connection beyond the cap
 * evicts the one that has been stalled longest — silent, still sending its request, or idle
 * between requests — and only when every connection is answering a request is the new one
 * closed. Calls `onShed` with what was done.
 */
export function capConnections(
  server: Server,
  max: number,
  onShed: (what: "evicted a stalled connection" | "refused a connection") => void,
): void {
  // Connections not answering a request, the longest stalled first (a Map keeps insertion order).
  const stalled = new Map<Socket, true>();
  let open = 0;
  const stall = (socket: Socket) => {
    stalled.delete(socket);
    if (!socket.destroyed) stalled.set(socket, true);
  };
  server.on("connection", (socket: Socket) => {
    if (open >= max) {
      const oldest = stalled.keys().next().value;
      if (oldest === undefined) {
        onShed("refused a connection");
        socket.destroy();
        return;
      }
      stalled.delete(oldest);
      oldest.destroy();
      onShed("evicted a stalled connection");
    }
    open += 1;
    stalled.set(socket, true);
    socket.once("close", () => {
      open -= 1;
      stalled.delete(socket);
    });
  });
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const { socket } = req;
    stall(socket); // still sending its request: as stalled as a silent one, from now
    req.once("end", () => stalled.delete(socket));
    res.once("finish", () => stall(socket));
  });
}
