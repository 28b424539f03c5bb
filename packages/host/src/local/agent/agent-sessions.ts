import { randomBytes } from "node:crypto";
import { AgentErrorCode, RpcError } from "@executa/core";
import type { Clock } from "../clock.js";
import { iso } from "../storage-provider.js";

/** One message of a session's history, as `agent/session.history` answers it. */
export interface AgentHistoryMessage {
  role: "user" | "assistant";
  content: string;
}

/** A local agent session. */
export interface AgentSessionRecord {
  readonly uuid: string;
  /** `userId/pluginName`: sessions are listed and found per plugin and user. */
  readonly owner: string;
  readonly kind: string;
  readonly submode: string | null;
  readonly label: string | null;
  readonly systemPrompt: string | null;
  readonly createdAt: number;
  readonly maxLifetimeAt: number;
  idleTtlSeconds: number;
  lastActiveAt: number;
  readonly history: AgentHistoryMessage[];
  /** `quota_caps` the session was created with. */
  readonly caps: { maxRuns?: number; maxTokens?: number };
  runs: number;
  tokens: number;
  /** The run in progress, if any. */
  active: { runId: string; controller: AbortController } | undefined;
}

/** What {@link AgentSessions.create} needs. */
export interface NewSession {
  owner: string;
  kind: string;
  submode: string | null;
  label: string | null;
  systemPrompt: string | null;
  ttlSeconds: number;
  caps: AgentSessionRecord["caps"];
}

/** Longest life of a session, whatever its refreshes: 8 h, as on the reference host. */
export const MAX_SESSION_LIFETIME_S = 8 * 60 * 60;

/** The agent sessions of a local host, with their idle and absolute expiry. */
export class AgentSessions {
  private readonly sessions = new Map<string, AgentSessionRecord>();

  constructor(
    private readonly now: Clock,
    private readonly maxPerOwner: number,
  ) {}

  create(spec: NewSession): AgentSessionRecord {
    const live = this.list(spec.owner, false).length;
    if (live >= this.maxPerOwner) {
      throw new RpcError(
        AgentErrorCode.QUOTA_EXCEEDED,
        `agent/session.create: ${live} live sessions already (cap ${this.maxPerOwner}); delete some first`,
        { sessions: live, max_sessions: this.maxPerOwner },
      );
    }
    const now = this.now();
    const record: AgentSessionRecord = {
      uuid: `aps_${randomBytes(12).toString("hex")}`,
      owner: spec.owner,
      kind: spec.kind,
      submode: spec.submode,
      label: spec.label,
      systemPrompt: spec.systemPrompt,
      createdAt: now,
      maxLifetimeAt: now + MAX_SESSION_LIFETIME_S * 1000,
      idleTtlSeconds: spec.ttlSeconds,
      lastActiveAt: now,
      history: [],
      caps: spec.caps,
      runs: 0,
      tokens: 0,
      active: undefined,
    };
    this.sessions.set(record.uuid, record);
    return record;
  }

  /** The owner's live session `uuid`; -32042 when unknown, someone else's, or expired. */
  get(owner: string, uuid: string, method: string): AgentSessionRecord {
    const record = this.sessions.get(uuid);
    if (!record || record.owner !== owner) {
      throw new RpcError(AgentErrorCode.SESSION_NOT_FOUND, `${method}: no session ${uuid}`, {
        app_session_uuid: uuid,
      });
    }
    if (this.expired(record)) {
      throw new RpcError(AgentErrorCode.SESSION_NOT_FOUND, `${method}: session ${uuid} has expired`, {
        app_session_uuid: uuid,
        expired: true,
      });
    }
    return record;
  }

  /** Marks activity: slides the idle window. */
  touch(record: AgentSessionRecord): void {
    record.lastActiveAt = this.now();
  }

  delete(record: AgentSessionRecord): void {
    record.active?.controller.abort();
    this.sessions.delete(record.uuid);
  }

  /** The owner's sessions, newest first. */
  list(owner: string, includeExpired: boolean): AgentSessionRecord[] {
    return [...this.sessions.values()]
      .filter((record) => record.owner === owner && (includeExpired || !this.expired(record)))
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  expired(record: AgentSessionRecord): boolean {
    return this.now() >= this.expiresAt(record);
  }

  /** End of the idle window, never past the absolute lifetime. */
  expiresAt(record: AgentSessionRecord): number {
    return Math.min(record.lastActiveAt + record.idleTtlSeconds * 1000, record.maxLifetimeAt);
  }

  /** The lifecycle fields create and refresh answer with. */
  lifecycle(record: AgentSessionRecord): Record<string, unknown> {
    const expiresIn = Math.max(0, Math.round((this.expiresAt(record) - this.now()) / 1000));
    return {
      app_session_uuid: record.uuid,
      expires_in: expiresIn,
      kind: record.kind,
      agent_submode: record.submode,
      fixed_client_id: null,
      expires_at: iso(this.expiresAt(record)),
      max_lifetime_at: iso(record.maxLifetimeAt),
      idle_ttl_seconds: record.idleTtlSeconds,
      session_expires_in: expiresIn,
    };
  }

  /** The summary `agent/session.list` answers with. */
  summary(record: AgentSessionRecord): Record<string, unknown> {
    return {
      app_session_uuid: record.uuid,
      kind: record.kind,
      submode: record.submode,
      fixed_client_id: null,
      label: record.label,
      created_at: iso(record.createdAt),
      last_active_at: iso(record.lastActiveAt),
      expires_at: iso(this.expiresAt(record)),
      max_lifetime_at: iso(record.maxLifetimeAt),
      idle_ttl_seconds: record.idleTtlSeconds,
      expired: this.expired(record),
    };
  }
}
