import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { MCP_FALLBACK_CAPABILITY } from "@executa/core/internal";
import type { ArtifactCommand } from "./artifact-process.js";

/** The MCP revision asked for: the first with output schemas. */
const MCP_REVISION = "2025-06-18";

/** What an artifact answered when spoken to in MCP; empty when it did not answer in MCP. */
interface McpAnswers {
  /** The `capabilities` of its `initialize` result. */
  capabilities?: Record<string, unknown>;
  /** Its `tools/list`. */
  tools?: unknown[];
}

/** Each tool's MCP schemas, by tool name. */
export interface ToolSchemas {
  /** `inputSchema`: the lossless projection of the tool's input (nested `required`, formats, …). */
  input: Record<string, unknown>;
  /** `outputSchema`, for tools whose result is an object. */
  output: Record<string, unknown>;
}

/**
 * Each tool's MCP `inputSchema` and `outputSchema`, by tool name, as the artifact lists
 * them when spoken to in MCP. The Executa manifest has no output schemas and says nested
 * facts in text, so the released tool surface takes both from here. Empty when the
 * artifact does not answer in MCP within `timeoutMs`.
 */
export async function readToolSchemas(command: ArtifactCommand, timeoutMs: number): Promise<ToolSchemas> {
  const { tools = [] } = await askInMcp(command, timeoutMs);
  const schemas: ToolSchemas = { input: {}, output: {} };
  for (const tool of tools as { name?: unknown; inputSchema?: unknown; outputSchema?: unknown }[]) {
    if (typeof tool?.name !== "string") continue;
    if (tool.inputSchema !== undefined) schemas.input[tool.name] = tool.inputSchema;
    if (tool.outputSchema !== undefined) schemas.output[tool.name] = tool.outputSchema;
  }
  return schemas;
}

/**
 * The reverse families the artifact answers itself when serving MCP (its fallback's, as
 * `initialize` announces them); none when it has no fallback or does not answer in MCP.
 */
export async function readFallbackFamilies(command: ArtifactCommand, timeoutMs: number): Promise<string[]> {
  const { capabilities } = await askInMcp(command, timeoutMs);
  const experimental = capabilities?.experimental as Record<string, unknown> | undefined;
  const families = (experimental?.[MCP_FALLBACK_CAPABILITY] as { families?: unknown } | undefined)?.families;
  return Array.isArray(families) ? families.filter((family) => typeof family === "string") : [];
}

/**
 * Speaks MCP to the artifact as a client does (`initialize`, then `tools/list`; a plugin
 * on `@executa/core` recognizes MCP from the first frame) and stops it. Resolves with
 * what it answered, or empty when it does not answer in MCP within `timeoutMs` (a plugin
 * not built on core may speak Executa only).
 */
function askInMcp(command: ArtifactCommand, timeoutMs: number): Promise<McpAnswers> {
  const child = spawn(command.command, command.args ?? [], {
    cwd: command.cwd,
    env: command.env ?? process.env,
    stdio: ["pipe", "pipe", "ignore"],
  });
  return new Promise<McpAnswers>((resolve) => {
    let settled = false;
    const answers: McpAnswers = {};
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      lines.close();
      child.stdin.end();
      child.kill();
      resolve(answers);
    };
    const timer = setTimeout(finish, timeoutMs);
    child.once("error", finish);
    child.once("exit", finish);
    child.stdin.on("error", finish);
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      const answer = parseFrame(line);
      const result = answer?.result as { capabilities?: unknown; tools?: unknown } | undefined;
      if (answer?.id === 1 && isRecord(result?.capabilities)) answers.capabilities = result.capabilities;
      if (answer?.id !== 2) return;
      if (Array.isArray(result?.tools)) answers.tools = result.tools;
      finish();
    });
    const frames = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: MCP_REVISION,
          capabilities: {},
          clientInfo: { name: "executa-build", version: "1" },
        },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ];
    child.stdin.write(`${frames.map((frame) => JSON.stringify(frame)).join("\n")}\n`);
  });
}

function parseFrame(line: string): { id?: unknown; result?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? (value as { id?: unknown; result?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
