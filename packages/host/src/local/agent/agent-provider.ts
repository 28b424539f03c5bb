import { randomUUID } from "node:crypto";
import { AgentErrorCode, JsonRpcErrorCode, type ReverseMethod, RpcError } from "@executa/core";
import type { ReverseCall, ReverseProvider } from "../../providers/provider.js";
import { type Clock, systemClock } from "../clock.js";
import { paramsOf } from "../method-params.js";
import { ParamReader } from "../params.js";
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
type Handler = (call: ReverseCall, reader: ParamReader, owner: string) => unknown;

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
    "agent/session.create": (_call, reader, owner) => this.create(reader, owner),
    "agent/session.run": (call, reader, owner) => this.run(call, reader, owner),
    "agent/session.cancel": (call, reader, owner) => this.cancel(call, reader, owner),
    "agent/session.history": (call, reader, owner) => this.history(call, reader, owner),
    "agent/session.refresh": (call, reader, owner) => this.refresh(call, reader, owner),
    "agent/session.delete": (call, reader, owner) => this.delete(call, reader, owner),
    "agent/session.list": (_call, reader, owner) => this.list(reader, owner),
    "agent/complete": (call) => this.complete(call),
  };

  constructor(private readonly options: AgentProviderOptions) {
    this.sessions = new AgentSessions(options.now ?? systemClock, options.maxSessions ?? 20);
    this.grantedTools = options.grantedTools ?? [];
    this.maxTokensPerRun = options.maxTokensPerRun ?? 4096;
  }

  handle(call: ReverseCall): unknown {
    const handler = Object.hasOwn(this.handlers, call.method) ? this.handlers[call.method] : undefined;
    if (!handler) throw new RpcError(JsonRpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${call.method}`);
    // Only the agent family's own methods have a handler, and each is a row of the table.
    paramsOf(call, call.method as ReverseMethod);
    const reader = new ParamReader(call.params, call.method, AgentErrorCode.INVALID_REQUEST);
    return handler(call, reader, `${call.context.userId}/${call.context.pluginName}`);
  }

  private create(reader: ParamReader, owner: string) {
    const kind = reader.has("kind") ? reader.oneOf("kind", ["agent"] as const) : "agent";
    const submode = reader.has("agent_submode") ? reader.string("agent_submode") : "auto";
    if (submode !== "auto") {
      throw new RpcError(
        AgentErrorCode.SUBMODE_MISMATCH,
        `agent/session.create: agent_submode ${JSON.stringify(submode)} is not granted; this host grants "auto" (llm.agent.auto)`,
        { requested: submode, granted: ["auto"] },
      );
    }
    const caps = reader.optionalObject("quota_caps") ?? {};
    const record = this.sessions.create({
      owner,
      kind,
      submode,
      label: reader.optionalString("label") ?? null,
      systemPrompt: readSystemPrompt(reader, "system_prompt") ?? null,
      ttlSeconds: readTtl(reader),
      caps: {
        maxRuns: positiveCap(reader, caps, "max_runs"),
        maxTokens: positiveCap(reader, caps, "max_tokens"),
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

  private async run(call: ReverseCall, reader: ParamReader, owner: string) {
    const record = this.session(call, reader, owner);
    const content = reader.string("content");
    if (reader.has("attachments") && !Array.isArray(reader.raw("attachments"))) {
      reader.fail("attachments must be a list");
    }
    reader.optionalInteger("recursion_limit", 1, 100);
    const runId = reader.optionalString("run_id") ?? `run_${randomUUID()}`;
    const systemPrompt = readSystemPrompt(reader, "systemPrompt") ?? record.systemPrompt ?? undefined;
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

  private cancel(call: ReverseCall, reader: ParamReader, owner: string) {
    const record = this.session(call, reader, owner);
    const runId = reader.string("run_id");
    const active = record.active?.runId === runId ? record.active : undefined;
    active?.controller.abort();
    return { cancelled: active !== undefined, run_id: runId };
  }

  private history(call: ReverseCall, reader: ParamReader, owner: string) {
    const record = this.session(call, reader, owner);
    return { app_session_uuid: record.uuid, messages: record.history.map((message) => ({ ...message })) };
  }

  private refresh(call: ReverseCall, reader: ParamReader, owner: string) {
    const record = this.session(call, reader, owner);
    record.idleTtlSeconds = readTtl(reader);
    this.sessions.touch(record);
    return this.sessions.lifecycle(record);
  }

  private delete(call: ReverseCall, reader: ParamReader, owner: string) {
    this.sessions.delete(this.session(call, reader, owner));
    return { deleted: true, app_session_uuid: reader.string("app_session_uuid") };
  }

  private list(reader: ParamReader, owner: string) {
    const includeExpired = reader.raw("include_expired") === true;
    const limit = reader.optionalInteger("limit", 1, 200) ?? 50;
    return {
      sessions: this.sessions
        .list(owner, includeExpired)
        .slice(0, limit)
        .map((record) => this.sessions.summary(record)),
    };
  }

  private async complete(call: ReverseCall) {
    const request = asAgentError(() => readSamplingRequest({ maxTokens: 1024, ...call.params }));
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

  private session(call: ReverseCall, reader: ParamReader, owner: string): AgentSessionRecord {
    return this.sessions.get(owner, reader.string("app_session_uuid"), call.method);
  }
}

function readSystemPrompt(reader: ParamReader, name: string): string | undefined {
  const prompt = reader.optionalString(name);
  if (prompt !== undefined && prompt.length > MAX_SYSTEM_PROMPT) {
    reader.fail(`${name} has ${prompt.length} characters (at most ${MAX_SYSTEM_PROMPT})`);
  }
  return prompt;
}

function readTtl(reader: ParamReader): number {
  return reader.optionalInteger("ttl_seconds", 60, MAX_SESSION_LIFETIME_S) ?? DEFAULT_TTL_S;
}

function positiveCap(reader: ParamReader, caps: Record<string, unknown>, name: string): number | undefined {
  const value = caps[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    reader.fail(`quota_caps.${name} must be an integer ≥ 1`);
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
