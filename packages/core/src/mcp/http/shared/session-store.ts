import type { RequestId } from "../../../wire/jsonrpc.js";

/** What a replica needs to serve a legacy session another replica began: its `initialize` params. */
export interface SessionRecord {
  /** The params of the session's `initialize`, replayed to negotiate the same revision and capabilities. */
  readonly initialize: unknown;
}

/**
 * The event log of one response stream: each event it is given is numbered, kept for a
 * while, and readable by any replica that a client resumes the stream on.
 */
export interface StreamLog {
  /** Keeps one event (a serialized JSON-RPC message) and returns its SSE event id. */
  append(frame: string, final: boolean): string;
}

/** Where a resumed stream's events go: written in order; `end` closes the stream. */
export interface StreamSink {
  write(eventId: string | undefined, frame: string): void;
  end(): void;
  /** True once the client went away: following stops. */
  readonly closed: boolean;
}

/**
 * What one replica tells the others about a session: a cancellation or the client's answer
 * to a server request (for the replica running the call), or that its client ended it.
 */
export type RelayedMessage =
  | { readonly kind: "cancelled"; readonly sessionId: string; readonly params: unknown }
  | { readonly kind: "response"; readonly sessionId: string; readonly response: ClientResponse }
  | { readonly kind: "ended"; readonly sessionId: string };

/** A response the client POSTed to a request the server sent it. */
export interface ClientResponse {
  readonly id: RequestId;
  readonly result?: unknown;
  readonly error?: { code?: unknown; message?: unknown; data?: unknown };
}

/**
 * The state of legacy sessions that replicas share: the sessions themselves, their
 * response streams' events (so `Last-Event-ID` resumes on any replica) and messages for
 * the replica running a call. {@link localSessionStore} shares nothing (one process
 * serves alone); the Redis store (`redis-session-store.ts`) shares it all.
 */
export interface SessionStore {
  /**
   * Whether other replicas see this state. Not shared: this process's own table is the only
   * truth about sessions, and streams cannot be resumed.
   */
  readonly shared: boolean;
  /** Records a session as its `initialize` is answered. */
  save(id: string, record: SessionRecord): Promise<void>;
  /**
   * The record of a session that may have begun on another replica, its lifetime renewed;
   * undefined once unknown, expired or ended (always, when nothing is shared).
   */
  load(id: string): Promise<SessionRecord | undefined>;
  /** Forgets a session its client ended. */
  remove(id: string): Promise<void>;
  /** A log for a response stream of `sessionId` answering `requestId`; undefined when streams cannot be resumed. */
  openStream(sessionId: string, requestId: RequestId): StreamLog | undefined;
  /**
   * Replays the events of a stream of `sessionId` after `lastEventId`, then follows it
   * until its answer, or until the replica running its call is gone (then ends it with an
   * error answer). False when the id names no stream of this session that can be resumed.
   */
  resume(sessionId: string, lastEventId: string, sink: StreamSink): Promise<boolean>;
  /** Tells the other replicas about a session (see {@link RelayedMessage}). */
  relay(message: RelayedMessage): void;
  /** Whether the shared state can be reached (for `/readyz`). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** Today's single-process behaviour: nothing is shared, streams are not resumable. */
export function localSessionStore(): SessionStore {
  return {
    shared: false,
    save: async () => {},
    load: async () => undefined,
    remove: async () => {},
    openStream: () => undefined,
    resume: async () => false,
    relay: () => {},
    ready: async () => true,
    close: async () => {},
  };
}
