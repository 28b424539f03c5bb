/** What the table needs of a session to evict it. */
export interface EvictableSession {
  /** Requests whose answer has not gone out yet. */
  readonly inFlight: number;
  /** Ends the session: its calls are cancelled. */
  close(why: string): void;
}

/** Whether a new session fits, and which one was evicted to make room. */
export type Room = { readonly ok: true; readonly evicted?: string } | { readonly ok: false };

/**
 * The open sessions by id, at most `max` of them. A session counts as used once a request
 * names it after its `initialize` (a lookup by id); when the table is full, room for a new
 * one is made by evicting the oldest session never used, so a flood of `initialize` calls
 * displaces only its own sessions and cannot grow memory without bound.
 */
export class SessionTable<S extends EvictableSession> {
  private readonly sessions = new Map<string, S>();
  /** Ids of the sessions never used after `initialize`, oldest first. */
  private readonly unused = new Set<string>();

  constructor(readonly max: number) {}

  /** Sessions open now. */
  get size(): number {
    return this.sessions.size;
  }

  /** The session a request names; it counts as used from now on. */
  get(id: string): S | undefined {
    const session = this.sessions.get(id);
    if (session) this.unused.delete(id);
    return session;
  }

  /** The session by id, without counting as a use (for messages relayed from other replicas). */
  peek(id: string): S | undefined {
    return this.sessions.get(id);
  }

  /** Adds a session just initialized (unused until a request names it). */
  set(id: string, session: S): void {
    this.sessions.set(id, session);
    this.unused.add(id);
  }

  /** Removes a session from the table (the caller closes it). */
  delete(id: string): boolean {
    this.unused.delete(id);
    return this.sessions.delete(id);
  }

  /** Removes every session (the caller closes them). */
  clear(): void {
    this.sessions.clear();
    this.unused.clear();
  }

  values(): IterableIterator<S> {
    return this.sessions.values();
  }

  [Symbol.iterator](): IterableIterator<[string, S]> {
    return this.sessions.entries();
  }

  /**
   * Makes room for one more session: nothing to do below the cap; else the oldest session
   * never used (and not still answering its `initialize`) is closed and removed. Not `ok`
   * when every session is in use: the new one must be refused.
   */
  makeRoom(): Room {
    if (this.sessions.size < this.max) return { ok: true };
    for (const id of this.unused) {
      const session = this.sessions.get(id) as S;
      if (session.inFlight > 0) continue;
      this.delete(id);
      session.close("evicted: never used after initialize while the server was full");
      return { ok: true, evicted: id };
    }
    return { ok: false };
  }
}
