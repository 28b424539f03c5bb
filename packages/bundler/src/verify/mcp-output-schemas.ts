import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { ArtifactCommand } from "./artifact-process.js";

/** The MCP revision asked for: the first with output schemas. */
const MCP_REVISION = "2025-06-18";

/**
 * Each tool's MCP `outputSchema`, by tool name, as the artifact lists them when spoken to
 * in MCP (`initialize`, then `tools/list`; a plugin on `@executa/core` recognizes MCP from
 * the first frame). The Executa manifest has no output schemas, so the released tool
 * surface takes them from here. Resolves `{}` when the artifact does not answer in MCP
 * within `timeoutMs` (a plugin not built on core may speak Executa only).
 */
export function readOutputSchemas(
  command: ArtifactCommand,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const child = spawn(command.command, command.args ?? [], {
    cwd: command.cwd,
    env: command.env ?? process.env,
    stdio: ["pipe", "pipe", "ignore"],
  });
  return new Promise<Record<string, unknown>>((resolve) => {
    let settled = false;
    const finish = (schemas: Record<string, unknown>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      lines.close();
      child.stdin.end();
      child.kill();
      resolve(schemas);
    };
    const timer = setTimeout(() => finish({}), timeoutMs);
    child.once("error", () => finish({}));
    child.once("exit", () => finish({}));
    child.stdin.on("error", () => finish({}));
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      const answer = parseFrame(line);
      if (answer?.id === 2) finish(schemasOf(answer.result));
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
    return value !== null && typeof value === "object"
      ? (value as { id?: unknown; result?: unknown })
      : undefined;
  } catch {
    return undefined;
  }
}

function schemasOf(result: unknown): Record<string, unknown> {
  const tools = (result as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(tools)) return {};
  const schemas: Record<string, unknown> = {};
  for (const tool of tools as { name?: unknown; outputSchema?: unknown }[]) {
    if (typeof tool?.name === "string" && tool.outputSchema !== undefined)
      schemas[tool.name] = tool.outputSchema;
  }
  return schemas;
}
