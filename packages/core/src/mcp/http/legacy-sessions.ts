import type { Logger } from "../../log/logger.js";
import type { IncomingRequest } from "../../rpc/peer.js";
import { uniqueId } from "../../rpc/unique-id.js";
import type { HttpMcpSession } from "./http-session.js";
import { Refusal, TRANSPORT_ERROR } from "./refusal.js";
import { SessionTable } from "./session-table.js";
import type { ClientResponse, RelayedMessage, SessionStore, StreamSink } from "./shared/session-store.js";

/**
 * The legacy era's sessions (`initialize`, then `Mcp-Session-Id`): this process's copies in
 * a bounded table, and the {@link SessionStore} that shares them with other replicas. With
 * a shared store a session begun elsewhere is taken over on its first request here, and
 * one ended or expired in the store is gone here too.
 */
export class LegacySessions {
  private readonly table: SessionTable<HttpMcpSession>;
  /** Takeovers under way, so concurrent requests of one session make one copy. */
  private readonly adopting = new Map<string, Promise<HttpMcpSession>>();

  constructor(
    private readonly store: SessionStore,
    private readonly open: (id: string) => HttpMcpSession,
    maxSessions: number,
    /** Idle time after which a session expires. */
    readonly idleMs: number,
    private readonly log: Logger,
  ) {
    this.table = new SessionTable(maxSessions);
  }

  /** Whether the sessions are shared with other replicas (streams can then be resumed on any). */
  get shared(): boolean {
    return this.store.shared;
  }

  /** A new session for an `initialize` with these params, recorded in the store before it is answered. */
  async begin(params: unknown): Promise<HttpMcpSession> {
    this.makeRoom();
    const id = uniqueId();
    const session = this.open(id);
    this.table.set(id, session);
    try {
      await reachStore(() => this.store.save(id, { initialize: params }), this.log);
    } catch (error) {
      this.table.delete(id);
      throw error;
    }
    return session;
  }

  /** Forgets a session whose `initialize` failed. */
  discard(id: string): void {
    this.table.delete(id);
    this.store.remove(id).catch(() => {});
  }

  /** The session named by `id`: 404 when unknown, expired or ended (here or, with a shared store, anywhere). */
  async find(id: string): Promise<HttpMcpSession> {
    const local = this.table.get(id);
    if (!this.store.shared) {
      if (local) return local;
      throw sessionNotFound();
    }
    const record = await reachStore(() => this.store.load(id), this.log);
    if (record === undefined) {
      if (local) this.drop(id, local, "ended or expired on another server");
      throw sessionNotFound();
    }
    if (local) return local;
    let adopting = this.adopting.get(id);
    if (!adopting) {
      adopting = this.adopt(id, record.initialize).finally(() => this.adopting.delete(id));
      this.adopting.set(id, adopting);
    }
    return adopting;
  }

  /** Ends a session for its client (DELETE), here and on the replicas holding it (their calls are cancelled). */
  async end(id: string): Promise<void> {
    const session = await this.find(id);
    await reachStore(() => this.store.remove(id), this.log);
    this.drop(id, session, "ended by the client");
    this.store.relay({ kind: "ended", sessionId: id });
  }

  /**
   * Resumes a stream of session `id` after `lastEventId` into `sink` (see
   * {@link SessionStore.resume}); false when there is no such stream to resume.
   */
  async resume(id: string, lastEventId: string, sink: StreamSink): Promise<boolean> {
    await this.find(id);
    return reachStore(() => this.store.resume(id, lastEventId, sink), this.log);
  }

  /** Handles a notification; a cancellation also goes to the replica that may run the call. */
  notify(session: HttpMcpSession, request: IncomingRequest): void {
    session.notify(request);
    if (request.method === "notifications/cancelled") {
      this.store.relay({ kind: "cancelled", sessionId: session.id, params: request.params });
    }
  }

  /** Routes a response to the request this server (or, relayed, another replica) sent the client. */
  settle(session: HttpMcpSession, response: ClientResponse): void {
    if (session.settle(response)) return;
    if (this.store.shared) this.store.relay({ kind: "response", sessionId: session.id, response });
    else this.log.warn(`dropped a response for unknown id ${JSON.stringify(response.id)}`);
  }

  /** A message another replica relayed: handled by this process's copy of its session, if any. */
  relayed(message: RelayedMessage): void {
    const session = this.table.peek(message.sessionId);
    if (!session) return;
    if (message.kind === "cancelled")
      session.notify({ method: "notifications/cancelled", params: message.params });
    else if (message.kind === "response") session.settle(message.response);
    else this.drop(message.sessionId, session, "ended by the client on another server");
  }

  /** Drops sessions idle here for longer than allowed (a shared one lives on in the store while used elsewhere). */
  expireIdle(now = Date.now()): void {
    for (const [id, session] of this.table) {
      if (session.inFlight === 0 && now - session.lastSeen > this.idleMs) {
        this.table.delete(id);
        session.close("expired");
        this.log.info(`MCP HTTP session ${id} expired after ${this.idleMs} ms idle`);
      }
    }
  }

  /** Ends every session of this process (the server is closing). */
  closeAll(): void {
    for (const session of this.table.values()) session.close("server stopped");
    this.table.clear();
  }

  private async adopt(id: string, initialize: unknown): Promise<HttpMcpSession> {
    this.makeRoom();
    const session = this.open(id);
    await session.adopt({ initialize });
    this.table.set(id, session);
    this.table.get(id);
    this.log.info(`MCP HTTP session ${id} taken over from another server`);
    return session;
  }

  private drop(id: string, session: HttpMcpSession, why: string): void {
    this.table.delete(id);
    session.close(why);
    this.log.info(`MCP HTTP session ${id} ${why}`);
  }

  /** Before a new session: the oldest never used is evicted at the cap; 503 when all are in use. */
  private makeRoom(): void {
    const room = this.table.makeRoom();
    if (!room.ok) {
      throw new Refusal(
        503,
        TRANSPORT_ERROR,
        `Too many sessions: all ${this.table.max} are in use; retry later, and end sessions you no longer need with DELETE`,
        { "retry-after": "5" },
      );
    }
    if (room.evicted) {
      this.log.info(`MCP HTTP session ${room.evicted} evicted: never used, and the server is full`);
    }
  }
}

function sessionNotFound(): Refusal {
  return new Refusal(
    404,
    TRANSPORT_ERROR,
    "Session not found (unknown, expired or ended): send initialize again",
  );
}

/** Runs a store operation; one that fails (Redis unreachable) is logged and answered 503, not blamed on the client. */
async function reachStore<T>(operation: () => Promise<T>, log: Logger): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    log.warn(`shared session state unreachable: ${(error as Error).message}`);
    throw new Refusal(
      503,
      TRANSPORT_ERROR,
      "Service Unavailable: the shared session state cannot be reached; retry later",
      { "retry-after": "2" },
    );
  }
}
