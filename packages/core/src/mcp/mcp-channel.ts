import { type ResponseFormat, responseFormatInstruction } from "../capabilities/response-format.js";
import type { ReverseChannel } from "../context/reverse-channel.js";
import { RpcError } from "../errors/rpc-error.js";
import type { RequestOptions } from "../rpc/peer.js";
import { type ReverseFamilyName, refusalCode, reverseRoute } from "../wire/capability-families.js";
import { JsonRpcErrorCode } from "../wire/error-codes.js";
import type { McpFallback } from "./fallback.js";

/** What the MCP reverse channel needs of the server. */
export interface McpChannelOptions {
  /** Sends a request to the MCP client. */
  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  /** The client's `capabilities` from `initialize`, once it arrived. */
  clientCapabilities(): Readonly<Record<string, unknown>> | undefined;
  /** The manifest's `host_capabilities`. */
  hostCapabilities: readonly string[];
  /** The manifest's `name`, told to the fallback. */
  pluginName: string;
  /** Answers the families MCP cannot carry; without one they are refused. */
  fallback?: McpFallback;
}

interface WireMessage {
  role?: unknown;
  content?: { type?: unknown; text?: unknown };
}

/**
 * Executa's `sampling/createMessage` params as MCP's: `system` messages fold into
 * `systemPrompt` (MCP messages are user or assistant), and the fields MCP lacks are
 * dropped (`onUnsupported`, `_clientTimeoutS`, `context`) or carried in the text: a
 * `responseFormat`, which no MCP client can bind the model to, becomes an instruction
 * with its schema at the end of the system prompt (once: not when the prompt has it).
 */
export function mcpSamplingParams(params: Record<string, unknown>): Record<string, unknown> {
  const { messages, systemPrompt, responseFormat, onUnsupported, _clientTimeoutS, context, ...rest } = params;
  const list = Array.isArray(messages) ? (messages as WireMessage[]) : [];
  const system = list.filter((m) => m.role === "system").map((m) => String(m.content?.text ?? ""));
  const given = [typeof systemPrompt === "string" ? systemPrompt : undefined, ...system];
  const format = isResponseFormat(responseFormat) ? responseFormatInstruction(responseFormat) : undefined;
  // createObject already put the instruction in the prompt when it allowed a downgrade.
  const carried = format !== undefined && given.some((text) => text?.includes(format));
  const prompts = [...given, carried ? undefined : format].filter(
    (text): text is string => text !== undefined && text !== "",
  );
  const out: Record<string, unknown> = { ...rest, messages: list.filter((m) => m.role !== "system") };
  if (prompts.length > 0) out.systemPrompt = prompts.join("\n\n");
  return out;
}

function isResponseFormat(value: unknown): value is ResponseFormat {
  const type = (value as { type?: unknown } | null)?.type;
  return (
    type === "json_object" ||
    (type === "json_schema" && typeof (value as { json_schema?: unknown }).json_schema === "object")
  );
}

/**
 * A result for a request that asked for a response format: reported downgraded, as an
 * Executa host reports a format it could not apply, since the MCP client had it as text only.
 */
function downgradedResult(result: unknown): unknown {
  if (typeof result !== "object" || result === null) return result;
  const meta = (result as { _meta?: Record<string, unknown> })._meta ?? {};
  const report = (meta.responseFormat as Record<string, unknown> | undefined) ?? {};
  return { ...result, _meta: { ...meta, responseFormat: { ...report, downgraded: true } } };
}

/** MCP's sampling result as Executa's: a content list (newer revisions) becomes its text. */
function executaSamplingResult(result: unknown): unknown {
  if (typeof result !== "object" || result === null) return result;
  const content = (result as { content?: unknown }).content;
  if (!Array.isArray(content)) return result;
  const text = content
    .filter((block: { type?: unknown }) => block?.type === "text")
    .map((block: { text?: unknown }) => String(block.text ?? ""))
    .join("");
  return { ...result, content: { type: "text", text } };
}

/**
 * The reverse channel of a server speaking MCP. MCP has sampling and none of Executa's
 * other reverse families, so `sampling/createMessage` goes to the client as MCP's
 * `sampling/createMessage` when the client declared the `sampling` capability; a call of
 * a family the plugin's {@link McpFallback} covers is answered by it (storage and files
 * from a local store, say); every other call (storage, files, upload, image, embeddings,
 * agent without a fallback) fails with its family's not-negotiated error without writing
 * anything. The version it reports is "2.0": the declared-capability check of the
 * capability clients still applies, and this channel refuses what MCP cannot carry.
 */
export function mcpReverseChannel(options: McpChannelOptions): ReverseChannel {
  return {
    hostCapabilities: options.hostCapabilities,
    protocolVersion: () => "2.0",
    request(method, params, requestOptions) {
      if (method === "sampling/createMessage" && options.clientCapabilities()?.sampling !== undefined) {
        const asked = (params ?? {}) as Record<string, unknown>;
        return options
          .request(method, mcpSamplingParams(asked), requestOptions)
          .then(executaSamplingResult)
          .then((result) => (isResponseFormat(asked.responseFormat) ? downgradedResult(result) : result));
      }
      const family = reverseRoute(method)?.family;
      const fallback = options.fallback;
      if (family && fallback?.families.includes(family.name)) {
        const call = {
          method,
          params: (params ?? {}) as Record<string, unknown>,
          pluginName: options.pluginName,
          timeoutMs: requestOptions?.timeoutMs,
          signal: requestOptions?.signal,
        };
        return bounded(
          Promise.resolve().then(() => fallback.handle(call)),
          requestOptions,
        );
      }
      return Promise.reject(notNegotiated(method, options.clientCapabilities() !== undefined));
    },
  };
}

/**
 * The fallback's answer (`{}` for none), bounded as a host's answer would be: rejected
 * with the signal's reason once it aborts, and with `timeoutError` once `timeoutMs` passed.
 */
function bounded(answer: Promise<unknown>, options: RequestOptions = {}): Promise<unknown> {
  const { signal, timeoutMs, timeoutError } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => settle(() => reject(signal?.reason));
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            const error = timeoutError?.() ?? new RpcError(JsonRpcErrorCode.INTERNAL_ERROR, "timed out");
            settle(() => reject(error));
          }, timeoutMs);
    const settle = (finish: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      finish();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    answer.then(
      (result) => settle(() => resolve(result ?? {})),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

/**
 * The refusal of a reverse call MCP cannot carry. Its message is what an MCP client shows
 * the model (see `toolFailureResult`), so it names the MCP-side cause and the fix.
 */
function notNegotiated(method: string, initialized: boolean): RpcError {
  const family = reverseRoute(method)?.family;
  return new RpcError(
    family ? refusalCode(family.codes, "not_negotiated") : JsonRpcErrorCode.METHOD_NOT_FOUND,
    `${method} is unavailable when serving MCP: ${refusalReason(family?.name, initialized)}`,
    { method, reason: "not_negotiated", protocol: "mcp" },
  );
}

/** Why a family's call cannot be answered under MCP, and what makes it work. */
function refusalReason(family: ReverseFamilyName | undefined, initialized: boolean): string {
  switch (family) {
    case "sampling":
      return initialized
        ? "the MCP client did not declare the sampling capability. Fix: use an MCP client that " +
            "supports sampling (it declares capabilities.sampling in initialize) and allow it there"
        : "the MCP client has not initialized. Fix: send initialize before calling tools";
    case "storage":
    case "files":
      return (
        "MCP clients provide no storage or files, and this server has no local fallback for them. " +
        "Fix (the plugin's author): serve the plugin with { mcp: { fallback: mcpLocalFallback() } } " +
        "from @executa/host/local, or run it under an Executa host"
      );
    default:
      return "MCP has no equivalent of this capability. Fix: run the plugin under an Executa host";
  }
}
