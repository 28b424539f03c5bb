import { randomUUID } from "node:crypto";
import {
  AgentErrorCode,
  JsonRpcErrorCode,
  type ReverseMethod,
  type ReverseParams,
  RpcError,
} from "@executa/core";
import type { ReverseCall, ReverseProvider } from "../../providers/provider.js";
import { type Clock, systemClock } from "../clock.js";
import { invalidParams, paramsOf } from "../method-params.js";
import { estimateTokens, readSamplingRequest, type SamplingResponder } from "../sampling/request.js";
import { type AgentSessionRecord, AgentSessions, MAX_SESSION_LIFETIME_S } from "./agent-sessions.js";
import { type AgentRunFrame, runMetaFrame, tokenFrames } from "./run-frames.js";

/** Options of {@link AgentProvider}. */
export interface AgentProviderOptions {
  /** Writes the replies of runs and `agent/complete` (the sampling responder: echo, script, relay). */
  responder: SamplingResponder;
  /** Live sessions one plugin may hold for a user. Default 20; beyond → -32045. */
  maxSessions?: number;
  /** `maxTokens` a run's reply may use. Default 4096. */
  maxTokensPerRun?: number;
  /** Tools the local sessions are granted. Default none (runs warn `NO_TOOLS_AVAILABLE`). */
  grantedTools?: readonly string[];
  now?: Clock;
}

const MAX_SYSTEM_PROMPT = 4000;
const DEFAULT_TTL_S = 600;
type Handler = (call: ReverseCall, owner: string) => unknown;
type Params<M extends ReverseMethod> = ReverseParams<M>;

/**
 * `agent/*`: scripted agent sessions. `session.create` / `.refresh` / `.delete` / `.list` /
 * `.history` keep lifecycle state (idle TTL, 8 h lifetime, per-plugin listing);
 * `session.run` answers buffered `{run_id, stream_id, frames, final}` with a `run_meta`
 * frame (warning `NO_TOOLS_AVAILABLE` when no tool is granted), one `token` frame per
 * word of the responder's reply, and `complete`; `session.cancel` aborts a run in
 * progress; `complete` is a stateless completion.
 */
export class AgentProvider implements ReverseProvider {
  private readonly sessions: AgentSessions;
  private readonly grantedTools: readonly string[];
  private readonly maxTokensPerRun: number;
  private readonly handlers: Record<string, Handler> = {
    "agent/session.create": (call, owner) => this.create(call, paramsOf(call, "agent/session.create"), owner),
    "agent/session.run": (call, owner) => this.run(call, paramsOf(call, "agent/session.run"), owner),
    "agent/session.cancel": (call, owner) => this.cancel(call, paramsOf(call, "agent/session.cancel"), owner),
    "agent/session.history": (call, owner) =>
      this.history(call, paramsOf(call, "agent/session.history"), owner),
    "agent/session.refresh": (call, owner) =>
      this.refresh(call, paramsOf(call, "agent/session.refresh"), owner),
    "agent/session.delete": (call, owner) => this.delete(call, paramsOf(call, "agent/session.delete"), owner),
    "agent/session.list": (call, owner) => this.list(call, paramsOf(call, "agent/session.list"), owner),
    "agent/complete": (call) => this.complete(call, paramsOf(call, "agent/complete")),
  };

  constructor(private readonly options: AgentProviderOptions) {
    this.sessions = new AgentSessions(options.now ?? systemClock, options.maxSessions ?? 20);
    this.grantedTools = options.grantedTools ?? [];
    this.maxTokensPerRun = options.maxTokensPerRun ?? 4096;
  }

  handle(call: ReverseCall): unknown {
    const handler = Object.hasOwn(this.handlers, call.method) ? this.handlers[call.method] : undefined;
    if (!handler) throw new RpcError(JsonRpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${call.method}`);
    return handler(call, `${call.context.userId}/${call.context.pluginName}`);
  }

  private create(call: ReverseCall, params: Params<"agent/session.create">, owner: string) {
    const { kind = "agent", agent_submode: submode = "auto" } = params;
    if (kind !== "agent") throw invalidParams(call, `kind must be "agent", got ${JSON.stringify(kind)}`);
    if (submode !== "auto") {
      throw new RpcError(
        AgentErrorCode.SUBMODE_MISMATCH,
        `agent/session.create: agent_submode ${JSON.stringify(submode)} is not granted; this host grants "auto" (llm.agent.auto)`,
        { requested: submode, granted: ["auto"] },
      );
    }
    const caps = params.quota_caps ?? {};
    const record = this.sessions.create({
      owner,
      kind,
      submode,
      label: params.label ?? null,
      systemPrompt: checkSystemPrompt(call, "system_prompt", params.system_prompt) ?? null,
      ttlSeconds: checkTtl(call, params.ttl_seconds),
      caps: {
        maxRuns: positiveCap(call, caps, "max_runs"),
        maxTokens: positiveCap(call, caps, "max_tokens"),
      },
    });
    return {
      ...this.sessions.lifecycle(record),
      submode,
      granted_tools: [...this.grantedTools],
      inherit_host_tools: this.grantedTools.includes("*"),
      label: record.label,
      system_prompt: record.systemPrompt,
      thread_id: record.uuid,
    };
  }

  private async run(call: ReverseCall, params: Params<"agent/session.run">, owner: string) {
    const record = this.session(call, params.app_session_uuid, owner);
    const { content } = params;
    if (params.recursion_limit !== undefined && params.recursion_limit > 100) {
      throw invalidParams(call, "recursion_limit must be an integer from 1 to 100");
    }
    const runId = params.run_id || `run_${randomUUID()}`;
    const systemPrompt =
      checkSystemPrompt(call, "systemPrompt", params.systemPrompt) ?? record.systemPrompt ?? undefined;
    this.checkCaps(record, call.method);
    if (record.active) {
      throw new RpcError(
        AgentErrorCode.RATE_LIMITED,
        `${call.method}: run ${record.active.runId} is still in progress on this session`,
        { run_id: record.active.runId },
      );
    }
    const controller = new AbortController();
    record.active = { runId, controller };
    const meta = runMetaFrame({
      runId,
      sessionUuid: record.uuid,
      submode: record.submode,
      grantedTools: this.grantedTools,
      inheritHostTools: this.grantedTools.includes("*"),
    });
    try {
      const frames = await this.reply(call, record, { content, systemPrompt, controller });
      return {
        run_id: runId,
        stream_id: `stream_${runId}`,
        frames: [meta, ...frames.frames],
        final: frames.final,
      };
    } finally {
      record.active = undefined;
      this.sessions.touch(record);
    }
  }

  /** Asks the responder for the turn's reply and records it; a cancelled run ends with a `cancelled` frame. */
  private async reply(
    call: ReverseCall,
    record: AgentSessionRecord,
    turn: { content: string; systemPrompt: string | undefined; controller: AbortController },
  ): Promise<{ frames: AgentRunFrame[]; final: Record<string, unknown> }> {
    const messages = [...record.history, { role: "user" as const, content: turn.content }];
    let reply: Awaited<ReturnType<SamplingResponder["respond"]>>;
    try {
      reply = await this.options.responder.respond(
        {
          messages: messages.map((message) => ({ role: message.role, text: message.content })),
          maxTokens: this.maxTokensPerRun,
          systemPrompt: turn.systemPrompt,
          modelHints: [],
        },
        {
          signal: AbortSignal.any([call.context.signal, turn.controller.signal]),
          timeoutMs: call.context.timeoutMs,
        },
      );
    } catch (error) {
      if (turn.controller.signal.aborted) {
        return { frames: [{ event: "cancelled" }], final: { text: "", stopReason: "cancelled" } };
      }
      throw providerError(call.method, error);
    }
    const usage = reply.usage ?? {
      inputTokens: estimateTokens(messages.map((message) => message.content).join("\n")),
      outputTokens: estimateTokens(reply.text),
    };
    record.history.push({ role: "user", content: turn.content }, { role: "assistant", content: reply.text });
    record.runs += 1;
    record.tokens += usage.inputTokens + usage.outputTokens;
    return {
      frames: [...tokenFrames(reply.text), { event: "complete" }],
      final: { text: reply.text, model: reply.model, stopReason: reply.stopReason, usage },
    };
  }

  private checkCaps(record: AgentSessionRecord, method: string): void {
    const { maxRuns, maxTokens } = record.caps;
    if (maxRuns !== undefined && record.runs >= maxRuns) {
      throw new RpcError(
        AgentErrorCode.QUOTA_EXCEEDED,
        `${method}: the session's ${maxRuns} runs are used up`,
        {
          runs: record.runs,
          max_runs: maxRuns,
        },
      );
    }
    if (maxTokens !== undefined && record.tokens >= maxTokens) {
      throw new RpcError(
        AgentErrorCode.QUOTA_EXCEEDED,
        `${method}: the session used ${record.tokens} of its ${maxTokens} tokens`,
        { tokens: record.tokens, max_tokens: maxTokens },
      );
    }
  }

  private cancel(call: ReverseCall, params: Params<"agent/session.cancel">, owner: string) {
    const record = this.session(call, params.app_session_uuid, owner);
    // This host cancels a named run; the spec lets a client leave it out.
    const runId = params.run_id;
    if (!runId) throw invalidParams(call, "run_id must be a non-empty string");
    const active = record.active?.runId === runId ? record.active : undefined;
    active?.controller.abort();
    return { cancelled: active !== undefined, run_id: runId };
  }

  private history(call: ReverseCall, params: Params<"agent/session.history">, owner: string) {
    const record = this.session(call, params.app_session_uuid, owner);
    return { app_session_uuid: record.uuid, messages: record.history.map((message) => ({ ...message })) };
  }

  private refresh(call: ReverseCall, params: Params<"agent/session.refresh">, owner: string) {
    const record = this.session(call, params.app_session_uuid, owner);
    record.idleTtlSeconds = checkTtl(call, params.ttl_seconds);
    this.sessions.touch(record);
    return this.sessions.lifecycle(record);
  }

  private delete(call: ReverseCall, params: Params<"agent/session.delete">, owner: string) {
    this.sessions.delete(this.session(call, params.app_session_uuid, owner));
    return { deleted: true, app_session_uuid: params.app_session_uuid };
  }

  private list(call: ReverseCall, params: Params<"agent/session.list">, owner: string) {
    const includeExpired = params.include_expired === true;
    const limit = params.limit ?? 50;
    if (limit > 200) throw invalidParams(call, "limit must be an integer from 1 to 200");
    return {
      sessions: this.sessions
        .list(owner, includeExpired)
        .slice(0, limit)
        .map((record) => this.sessions.summary(record)),
    };
  }

  private async complete(call: ReverseCall, params: Params<"agent/complete">) {
    const request = asAgentError(() => readSamplingRequest({ maxTokens: 1024, ...params }));
    const reply = await this.options.responder
      .respond(request, { signal: call.context.signal, timeoutMs: call.context.timeoutMs })
      .catch((error: unknown) => {
        throw providerError(call.method, error);
      });
    const usage = reply.usage ?? {
      inputTokens: estimateTokens(request.messages.map((message) => message.text).join("\n")),
      outputTokens: estimateTokens(reply.text),
    };
    return {
      role: "assistant",
      content: { type: "text", text: reply.text },
      model: reply.model,
      stopReason: reply.stopReason,
      usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens },
    };
  }

  private session(call: ReverseCall, uuid: string, owner: string): AgentSessionRecord {
    return this.sessions.get(owner, uuid, call.method);
  }
}

/** A system prompt within this host's length cap (the empty one counts as none). */
function checkSystemPrompt(call: ReverseCall, name: string, prompt: string | undefined): string | undefined {
  if (prompt !== undefined && prompt.length > MAX_SYSTEM_PROMPT) {
    throw invalidParams(call, `${name} has ${prompt.length} characters (at most ${MAX_SYSTEM_PROMPT})`);
  }
  return prompt === "" ? undefined : prompt;
}

/** `ttl_seconds` within this host's range: a whole number from 60 s to the session's lifetime. */
function checkTtl(call: ReverseCall, ttl: number | undefined): number {
  if (ttl === undefined) return DEFAULT_TTL_S;
  if (!Number.isInteger(ttl) || ttl < 60 || ttl > MAX_SESSION_LIFETIME_S) {
    throw invalidParams(call, `ttl_seconds must be an integer from 60 to ${MAX_SESSION_LIFETIME_S}`);
  }
  return ttl;
}

function positiveCap(call: ReverseCall, caps: Record<string, unknown>, name: string): number | undefined {
  const value = caps[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw invalidParams(call, `quota_caps.${name} must be an integer ≥ 1`);
  }
  return value;
}

/** A responder's failure as the agent family's provider error (-32046), keeping the upstream code. */
function providerError(method: string, error: unknown): RpcError {
  const upstream = error instanceof RpcError ? { upstream_code: error.code } : undefined;
  return new RpcError(
    AgentErrorCode.PROVIDER_ERROR,
    `${method}: ${(error as Error)?.message ?? String(error)}`,
    upstream,
  );
}

/** Runs a sampling-request reader, answering its invalid-request errors with the agent code. */
function asAgentError<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof RpcError) {
      throw new RpcError(
        AgentErrorCode.INVALID_REQUEST,
        error.message.replace("sampling/createMessage", "agent/complete"),
        error.data,
      );
    }
    throw error;
  }
}
