import type { ReverseChannel } from "../context/reverse-channel.js";
import { RpcError } from "../errors/rpc-error.js";
import type { RequestOptions } from "../rpc/peer.js";
import { refusalCode, reverseFamilyOf } from "../wire/capability-families.js";
import { JsonRpcErrorCode } from "../wire/error-codes.js";

/** What the MCP reverse channel needs of the server. */
export interface McpChannelOptions {
  /** Sends a request to the MCP client. */
  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  /** The client's `capabilities` from `initialize`, once it arrived. */
  clientCapabilities(): Readonly<Record<string, unknown>> | undefined;
  /** The manifest's `host_capabilities`. */
  hostCapabilities: readonly string[];
}

interface WireMessage {
  role?: unknown;
  content?: { type?: unknown; text?: unknown };
}

/**
 * Executa's `sampling/createMessage` params as MCP's: `system` messages fold into
 * `systemPrompt` (MCP messages are user or assistant), and the fields MCP lacks
 * (`responseFormat`, `onUnsupported`, `_clientTimeoutS`, `context`) are dropped.
 */
export function mcpSamplingParams(params: Record<string, unknown>): Record<string, unknown> {
  const { messages, systemPrompt, responseFormat, onUnsupported, _clientTimeoutS, context, ...rest } = params;
  const list = Array.isArray(messages) ? (messages as WireMessage[]) : [];
  const system = list.filter((m) => m.role === "system").map((m) => String(m.content?.text ?? ""));
  const prompts = [typeof systemPrompt === "string" ? systemPrompt : undefined, ...system].filter(
    (text): text is string => text !== undefined && text !== "",
  );
  const out: Record<string, unknown> = { ...rest, messages: list.filter((m) => m.role !== "system") };
  if (prompts.length > 0) out.systemPrompt = prompts.join("\n\n");
  return out;
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
 * `sampling/createMessage` when the client declared the `sampling` capability, and every
 * other call (storage, files, upload, image, embeddings, agent) fails with its family's
 * not-negotiated error without writing anything. The version it reports is "2.0": the
 * declared-capability check of the capability clients still applies, and this channel
 * refuses what MCP cannot carry.
 */
export function mcpReverseChannel(options: McpChannelOptions): ReverseChannel {
  return {
    hostCapabilities: options.hostCapabilities,
    protocolVersion: () => "2.0",
    request(method, params, requestOptions) {
      if (method === "sampling/createMessage" && options.clientCapabilities()?.sampling !== undefined) {
        return options
          .request(method, mcpSamplingParams((params ?? {}) as Record<string, unknown>), requestOptions)
          .then(executaSamplingResult);
      }
      return Promise.reject(notNegotiated(method, options.clientCapabilities() !== undefined));
    },
  };
}

function notNegotiated(method: string, initialized: boolean): RpcError {
  const family = reverseFamilyOf(method);
  const why =
    family?.name === "sampling"
      ? initialized
        ? "the MCP client did not declare the sampling capability"
        : "the MCP client has not initialized"
      : "MCP has no equivalent of this capability";
  return new RpcError(
    family ? refusalCode(family.codes, "not_negotiated") : JsonRpcErrorCode.METHOD_NOT_FOUND,
    `${method} is unavailable when serving MCP: ${why}`,
    { method, reason: "not_negotiated", protocol: "mcp" },
  );
}
