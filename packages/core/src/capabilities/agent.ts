import { errorBrand } from "../errors/brand.js";
import { reverseMethodSpec } from "../wire/capability-families.js";
import { AgentErrorCode, SamplingErrorCode } from "../wire/error-codes.js";
import type {
  AgentCompleteRequest,
  AgentLifecycleResult,
  AgentRefreshOptions,
  AgentRunOptions,
  AgentRunResult,
  AgentSessionCreateOptions,
  AgentSessionInfo,
  AgentSessionListOptions,
  AgentSessionSummary,
} from "./agent-requests.js";
import { AgentSession, withInheritance } from "./agent-session.js";
import { CapabilityError } from "./capability-error.js";
import type { CallOptions, Family } from "./family.js";
import type { HostCaller } from "./host-call.js";
import { wireMessages } from "./sampling.js";
import type { CreateMessageResult } from "./sampling-messages.js";

const CREATE = reverseMethodSpec("agent/session.create");
const RUN = reverseMethodSpec("agent/session.run");
const CANCEL = reverseMethodSpec("agent/session.cancel");
const HISTORY = reverseMethodSpec("agent/session.history");
const DELETE = reverseMethodSpec("agent/session.delete");
const LIST = reverseMethodSpec("agent/session.list");
const REFRESH = reverseMethodSpec("agent/session.refresh");
const COMPLETE = reverseMethodSpec("agent/complete");

/**
 * Agent codes plus TIMEOUT. The agent family has no timeout code of its own; a local
 * timeout uses sampling's -32005, as the reference SDK does (agent calls share
 * sampling's plumbing on the host). It has no NOT_NEGOTIATED code either: a host that
 * did not negotiate 2.0 gives NOT_GRANTED with `data.reason === "not_negotiated"`.
 */
export const AgentCallErrorCode = { ...AgentErrorCode, TIMEOUT: SamplingErrorCode.TIMEOUT } as const;

/** An `agent/*` call failed. Codes: {@link AgentCallErrorCode}. */
export class AgentError extends CapabilityError {
  /** The process-wide identity of this class (see `RpcError`). */
  static override readonly brand: symbol = errorBrand("AgentError");

  static readonly codes = AgentCallErrorCode;
  override readonly name = "AgentError";
  readonly family = "agent" as const;
  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(AgentCallErrorCode, code, message, data, options);
  }
  /** The session expired or never existed: create a new one. */
  isSessionNotFound(): boolean {
    return this.code === AgentErrorCode.SESSION_NOT_FOUND;
  }
  isSubmodeMismatch(): boolean {
    return this.code === AgentErrorCode.SUBMODE_MISMATCH;
  }
  isRateLimited(): boolean {
    return this.code === AgentErrorCode.RATE_LIMITED;
  }
  /** The agent wanted a tool the user did not grant. */
  isToolNotGranted(): boolean {
    return this.code === AgentErrorCode.TOOL_NOT_GRANTED;
  }
}

export const agentFamily: Family<AgentError> = {
  name: "agent",
  codes: AgentCallErrorCode,
  malformedReplyCode: AgentErrorCode.PROVIDER_ERROR,
  error: (code, message, data, options) => new AgentError(code, message, data, options),
};

/** `agent.session`: host agent sessions, addressed by `app_session_uuid`. */
export class AgentSessions {
  /** Built by {@link AgentClient} for its `session`; plugin code never constructs one. @internal */
  constructor(private readonly caller: HostCaller) {}

  /** Creates a session (`agent/session.create`). */
  async create(options: AgentSessionCreateOptions = {}): Promise<AgentSessionInfo> {
    const {
      kind = "agent",
      agentSubmode,
      fixedClientId,
      label,
      quotaCaps,
      systemPrompt,
      ttlSeconds,
      ...call
    } = options;
    const info: AgentSessionInfo = await this.caller.call(
      agentFamily,
      CREATE,
      {
        kind,
        agent_submode: kind === "agent" ? (agentSubmode ?? "auto") : agentSubmode,
        fixed_client_id: fixedClientId,
        label,
        quota_caps: quotaCaps,
        system_prompt: systemPrompt,
        ttl_seconds: ttlSeconds,
      },
      call,
    );
    return withInheritance(info);
  }

  /** Runs one turn and answers all of its frames at once. Default timeout 300 s. */
  async run(sessionUuid: string, content: string, options: AgentRunOptions = {}): Promise<AgentRunResult> {
    const { attachments, recursionLimit, runId, systemPrompt, ...call } = options;
    if (typeof content !== "string" || content === "") {
      throw new AgentError(
        AgentErrorCode.INVALID_REQUEST,
        "agent/session.run: content must be a non-empty string",
      );
    }
    const result = await this.caller.call(
      agentFamily,
      RUN,
      {
        app_session_uuid: uuid(RUN.method, sessionUuid),
        content,
        attachments,
        recursion_limit: recursionLimit,
        run_id: runId,
        systemPrompt,
      },
      call,
    );
    return { ...result, frames: Array.isArray(result.frames) ? result.frames : [] };
  }

  async cancel(
    sessionUuid: string,
    runId?: string,
    options: CallOptions = {},
  ): Promise<AgentLifecycleResult> {
    return this.caller.call(
      agentFamily,
      CANCEL,
      { app_session_uuid: uuid(CANCEL.method, sessionUuid), run_id: runId },
      options,
    );
  }

  async history(sessionUuid: string, options: CallOptions = {}): Promise<AgentLifecycleResult> {
    return this.caller.call(
      agentFamily,
      HISTORY,
      { app_session_uuid: uuid(HISTORY.method, sessionUuid) },
      options,
    );
  }

  async delete(sessionUuid: string, options: CallOptions = {}): Promise<AgentLifecycleResult> {
    return this.caller.call(
      agentFamily,
      DELETE,
      { app_session_uuid: uuid(DELETE.method, sessionUuid) },
      options,
    );
  }

  /** This plugin's sessions for the current user; works after a restart lost the handles. */
  async list(options: AgentSessionListOptions = {}): Promise<AgentLifecycleResult> {
    const { includeExpired, limit, ...call } = options;
    return this.caller.call(agentFamily, LIST, { include_expired: includeExpired, limit }, call);
  }

  /** Re-mints the session's token and slides its idle window. */
  async refresh(sessionUuid: string, options: AgentRefreshOptions = {}): Promise<AgentLifecycleResult> {
    const { ttlSeconds, ...call } = options;
    return this.caller.call(
      agentFamily,
      REFRESH,
      { app_session_uuid: uuid(REFRESH.method, sessionUuid), ttl_seconds: ttlSeconds },
      call,
    );
  }
}

/** `ctx.host.agent`: host agent sessions and stateless completions (`llm.agent.auto`). */
export class AgentClient {
  /** Session lifecycle by uuid: `create`, `run`, `cancel`, `history`, `delete`, `list`, `refresh`. */
  readonly session: AgentSessions;

  /** Built with the invoke's host caller by core (`ctx.host`); plugin code never constructs one. @internal */
  constructor(private readonly caller: HostCaller) {
    this.session = new AgentSessions(caller);
  }

  /**
   * Creates a session and answers a handle on it:
   *
   * ```ts
   * const session = await ctx.host.agent.createSession({ label: "triage" });
   * const run = await session.run("Summarize my open issues");
   * if (run.noToolsAvailable) ctx.log.warn(run.warnings[0].message);
   * await session.delete();
   * ```
   */
  async createSession(options: AgentSessionCreateOptions = {}): Promise<AgentSession> {
    return new AgentSession(this.session, await this.session.create(options));
  }

  /** A handle on an existing session (e.g. one from {@link AgentClient.listSessions}); nothing is sent. */
  attach(sessionUuid: string | AgentSessionSummary): AgentSession {
    const info = typeof sessionUuid === "string" ? { app_session_uuid: sessionUuid } : sessionUuid;
    return new AgentSession(this.session, {
      ...info,
      app_session_uuid: uuid("agent.attach", info?.app_session_uuid),
    });
  }

  /** This plugin's sessions for the current user (`result.sessions`); works after a restart lost the handles. */
  async listSessions(options: AgentSessionListOptions = {}): Promise<AgentSessionSummary[]> {
    const reply = await this.session.list(options);
    return Array.isArray(reply.sessions) ? (reply.sessions as AgentSessionSummary[]) : [];
  }

  /** One stateless completion (`agent/complete`). */
  async complete(request: AgentCompleteRequest): Promise<CreateMessageResult> {
    this.caller.ensureAvailable(agentFamily, COMPLETE);
    const { messages, maxTokens, ...rest } = request ?? ({} as AgentCompleteRequest);
    const { timeoutMs, signal, ...params } = rest;
    const wire = wireMessages(agentFamily, COMPLETE.method, messages);
    if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens <= 0)) {
      throw new AgentError(
        AgentErrorCode.INVALID_REQUEST,
        "agent/complete: maxTokens must be a positive integer",
      );
    }
    const reply = await this.caller.call(
      agentFamily,
      COMPLETE,
      { messages: wire, maxTokens, ...params },
      { timeoutMs, signal },
    );
    // Hosts may omit fields the public type names; the ones present are checked.
    return reply as CreateMessageResult;
  }
}

function uuid(method: string, value: unknown): string {
  if (typeof value !== "string" || value === "") {
    throw new AgentError(
      AgentErrorCode.INVALID_REQUEST,
      `${method}: the session uuid must be a non-empty string`,
    );
  }
  return value;
}
