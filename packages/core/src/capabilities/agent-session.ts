/** Handles on host agent sessions: `ctx.host.agent.createSession()` and the runs it makes. */

import {
  type AgentErrorFrame,
  type AgentRunFrame,
  type AgentRunMetaFrame,
  type AgentRunWarning,
  grantedTools,
  inheritsHostTools,
  NO_TOOLS_AVAILABLE,
  runText,
  runWarnings,
  toAgentFrame,
} from "./agent-frames.js";
import type {
  AgentLifecycleResult,
  AgentRefreshOptions,
  AgentRunOptions,
  AgentRunResult,
  AgentSessionInfo,
} from "./agent-requests.js";
import type { CallOptions } from "./family.js";

/** One finished run: its frames, typed, and what they add up to. Iterable over its frames. */
export class AgentRun implements Iterable<AgentRunFrame>, AsyncIterable<AgentRunFrame> {
  /** The run's frames in order. */
  readonly frames: readonly AgentRunFrame[];
  /** The host's id of the run (from the reply, else from `run_meta`). */
  readonly runId: string | undefined;
  readonly streamId: string | undefined;
  /** The reply's `final` value, as the host sent it. */
  readonly final: unknown;
  /** The reply as the host sent it. */
  readonly raw: AgentRunResult;

  constructor(raw: AgentRunResult) {
    this.raw = raw;
    this.frames = raw.frames.map((frame) => toAgentFrame(frame as Record<string, unknown>));
    this.runId = stringOf(raw.run_id) ?? stringOf(this.meta?.run_id);
    this.streamId = stringOf(raw.stream_id);
    this.final = raw.final;
  }

  /** The answer: the token frames joined (or the `final` frame's text). */
  get text(): string {
    return runText(this.frames);
  }

  /** The `run_meta` frame, when the host sent one. */
  get meta(): AgentRunMetaFrame | undefined {
    return this.frames.find((frame): frame is AgentRunMetaFrame => frame.event === "run_meta");
  }

  /** The `run_meta` warnings, e.g. `NO_TOOLS_AVAILABLE`. */
  get warnings(): AgentRunWarning[] {
    return runWarnings(this.frames);
  }

  /** True when `run_meta` warned that the session has no executable tool (its claimed side effects did not happen). */
  get noToolsAvailable(): boolean {
    return this.warnings.some((warning) => warning.code === NO_TOOLS_AVAILABLE);
  }

  /** The `error` frame, when the run failed on the host. */
  get error(): AgentErrorFrame | undefined {
    return this.frames.find((frame): frame is AgentErrorFrame => frame.event === "error");
  }

  /** Whether a `complete` frame ended the run. */
  get completed(): boolean {
    return this.frames.some((frame) => frame.event === "complete");
  }

  [Symbol.iterator](): Iterator<AgentRunFrame> {
    return this.frames[Symbol.iterator]();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<AgentRunFrame> {
    yield* this.frames;
  }
}

/** A session's conversation (`agent/session.history`). */
export interface AgentHistory {
  messages: { role: string; content: unknown; [key: string]: unknown }[];
  [key: string]: unknown;
}

/** The `agent/session.*` calls a session handle makes for its own session (`AgentSessions` makes them). */
export interface AgentSessionCalls {
  /** `agent/session.run`: one buffered run. */
  run(sessionUuid: string, content: string, options?: AgentRunOptions): Promise<AgentRunResult>;
  /** `agent/session.cancel`: cancels a run (the latest when `runId` is absent). */
  cancel(sessionUuid: string, runId?: string, options?: CallOptions): Promise<AgentLifecycleResult>;
  /** `agent/session.history`: the session's messages. */
  history(sessionUuid: string, options?: CallOptions): Promise<AgentLifecycleResult>;
  /** `agent/session.refresh`: extends the session's lifetime. */
  refresh(sessionUuid: string, options?: AgentRefreshOptions): Promise<AgentLifecycleResult>;
  /** `agent/session.delete`: ends the session. */
  delete(sessionUuid: string, options?: CallOptions): Promise<AgentLifecycleResult>;
}

/**
 * A host agent session, addressed by its `app_session_uuid` (the session's token stays
 * with the host). Made by `ctx.host.agent.createSession()` or `attach(uuid)`.
 */
export class AgentSession {
  /** `app_session_uuid`. */
  readonly uuid: string;
  /** The id of the last run this handle made (what `cancel()` cancels by default). */
  lastRunId: string | undefined;
  private sessionInfo: AgentSessionInfo;

  constructor(
    private readonly sessions: AgentSessionCalls,
    info: AgentSessionInfo,
  ) {
    this.uuid = info.app_session_uuid;
    this.sessionInfo = withInheritance(info);
  }

  /**
   * What the host answered on create (merged with later refreshes), `inherit_host_tools`
   * set whenever `granted_tools` is known. A handle from `attach(uuid)` knows only the uuid.
   */
  get info(): Readonly<AgentSessionInfo> {
    return this.sessionInfo;
  }

  /** `["*"]`: inherits the user's host tools; `[]`: text only; else an allow-list. */
  get grantedTools(): string[] {
    return grantedTools(this.info.granted_tools);
  }

  /** Whether the session can use the user's host tools (files, browser, commands…). */
  get inheritHostTools(): boolean {
    return this.info.inherit_host_tools === true;
  }

  /** Seconds until the session's idle window closes, as last reported. */
  get expiresIn(): number | undefined {
    return typeof this.info.expires_in === "number" ? this.info.expires_in : undefined;
  }

  /** Runs one turn and answers it whole (the host buffers the run). Default timeout 300 s. */
  async run(content: string, options: AgentRunOptions = {}): Promise<AgentRun> {
    const run = new AgentRun(await this.sessions.run(this.uuid, content, options));
    if (run.runId !== undefined) this.lastRunId = run.runId;
    return run;
  }

  /** The run's frames one by one: `for await (const frame of session.stream("hi"))`. */
  async *stream(content: string, options: AgentRunOptions = {}): AsyncGenerator<AgentRunFrame, AgentRun> {
    const run = await this.run(content, options);
    yield* run.frames;
    return run;
  }

  /** Cancels a run: `runId`, else this handle's last run. */
  async cancel(
    runId: string | undefined = this.lastRunId,
    options: CallOptions = {},
  ): Promise<AgentLifecycleResult> {
    return this.sessions.cancel(this.uuid, runId, options);
  }

  /** The session's messages so far. */
  async history(options: CallOptions = {}): Promise<AgentHistory> {
    const reply = await this.sessions.history(this.uuid, options);
    return {
      ...reply,
      messages: Array.isArray(reply.messages) ? (reply.messages as AgentHistory["messages"]) : [],
    };
  }

  /** Re-mints the session's token and slides its idle window; updates {@link AgentSession.info}. */
  async refresh(options: AgentRefreshOptions = {}): Promise<AgentLifecycleResult> {
    const reply = await this.sessions.refresh(this.uuid, options);
    this.sessionInfo = withInheritance({ ...this.sessionInfo, ...reply, app_session_uuid: this.uuid });
    return reply;
  }

  /** Ends the session on the host. */
  async delete(options: CallOptions = {}): Promise<AgentLifecycleResult> {
    return this.sessions.delete(this.uuid, options);
  }
}

/** `info` with `inherit_host_tools` set, inferred from `"*"` in `granted_tools` when absent. */
export function withInheritance(info: AgentSessionInfo): AgentSessionInfo {
  if (typeof info.inherit_host_tools !== "boolean" && !Array.isArray(info.granted_tools)) return info;
  return {
    ...info,
    inherit_host_tools: inheritsHostTools(info.inherit_host_tools, grantedTools(info.granted_tools)),
  };
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
