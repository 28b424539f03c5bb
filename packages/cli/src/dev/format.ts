import { styleText } from "node:util";
import type { InvokeResult, Manifest, ParameterSchema, ToolManifest } from "@executa/core";
import { JsonRpcErrorCode, RpcError } from "@executa/core";
import { isToolThrewMessage } from "@executa/core/internal";
import { type ExitInfo, isHostError } from "@executa/host";
import { crashSummary } from "./crash-summary.js";
import { exitOf, exitText } from "./exit-text.js";

/** Text styling that is a no-op without colour. */
export interface Paint {
  ok(text: string): string;
  bad(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

/** Styling with ANSI colours when `color` is true. */
export function paint(color: boolean): Paint {
  const style = (format: Parameters<typeof styleText>[0]) => (text: string) =>
    color ? styleText(format, text) : text;
  return { ok: style("green"), bad: style("red"), dim: style("dim"), bold: style("bold") };
}

/** `name: string`, `times?: integer = 1`, `tags?: string[]`, `unit?: "c" | "f"`. */
export function formatParameter(parameter: ParameterSchema): string {
  const optional = parameter.required === false ? "?" : "";
  let type: string = parameter.type;
  if (parameter.type === "array") type = `${parameter.items?.type ?? parameter.items_type ?? "string"}[]`;
  if (parameter.enum && parameter.enum.length > 0)
    type = parameter.enum.map((v) => JSON.stringify(v)).join(" | ");
  const fallback = parameter.default !== undefined ? ` = ${JSON.stringify(parameter.default)}` : "";
  return `${parameter.name}${optional}: ${type}${fallback}`;
}

/** One tool with its parameters and description, over several lines. */
export function formatTool(tool: ToolManifest, p: Paint = paint(false)): string {
  const parameters = tool.parameters ?? [];
  const lines = [
    `${p.bold(tool.name)}(${parameters.map(formatParameter).join(", ")})${tool.timeout ? p.dim(`  timeout ${tool.timeout} s`) : ""}`,
  ];
  if (tool.description) lines.push(`    ${tool.description}`);
  for (const parameter of parameters) {
    if (parameter.description) lines.push(p.dim(`    ${parameter.name}: ${parameter.description}`));
  }
  return lines.join("\n");
}

/** The tool list of a manifest. */
export function formatTools(manifest: Manifest, p: Paint = paint(false)): string {
  return manifest.tools.map((tool) => `  ${formatTool(tool, p).replace(/\n/g, "\n  ")}`).join("\n");
}

/** "weather 1.0.0 · protocol 2.0 · 2 tools". */
export function formatPluginLine(manifest: Manifest, protocolVersion: string): string {
  const count = manifest.tools.length;
  return `${manifest.name} ${manifest.version} · protocol ${protocolVersion} · ${count} tool${count === 1 ? "" : "s"}`;
}

/** "12 ms" or "1.24 s". */
export function formatElapsed(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** An InvokeResult: the verdict line, then the data or the error. */
export function formatInvokeResult(result: InvokeResult, elapsedMs: number, p: Paint = paint(false)): string {
  const timing = `in ${formatElapsed(elapsedMs)}${result.duration_ms !== undefined ? ` (plugin: ${result.duration_ms} ms)` : ""}`;
  if (result.success) {
    const data = result.data === undefined ? "" : `\n${JSON.stringify(result.data, null, 2)}`;
    return `${p.ok("✔ success")} ${timing}${data}`;
  }
  return `${p.bad("✖ failure")} ${timing}: ${result.error ?? "(no error message)"}`;
}

/** An invoke that did not produce a result: an error frame, a timeout, the plugin gone. */
export function formatInvokeError(error: unknown, elapsedMs: number, p: Paint = paint(false)): string {
  const timing = `in ${formatElapsed(elapsedMs)}`;
  if (error instanceof RpcError && !isHostError(error, "PLUGIN_EXITED")) {
    const data = error.data === undefined ? "" : `\n${JSON.stringify(error.data, null, 2)}`;
    return `${p.bad(`✖ error ${error.code}`)} ${timing}: ${error.message}${data}${toolErrorHint(error)}`;
  }
  const exit = exitOf(error);
  if (exit) return `${p.bad("✖ error")} ${timing}: ${crashText(exit, error)}`;
  return `${p.bad("✖ error")} ${timing}: ${error instanceof Error ? error.message : String(error)}`;
}

/** Under a tool's unexpected failure (-32603 from a plain `Error`): how to report an expected one. */
function toolErrorHint(error: RpcError): string {
  if (error.code !== JsonRpcErrorCode.INTERNAL_ERROR || !isToolThrewMessage(error.message)) return "";
  return (
    "\n  hint: for an expected failure, throw new ToolError(message) (from @executa/decorators or " +
    "@executa/core): the host then gets { success: false, error } and the model is told why"
  );
}

/** The plugin died mid-request: how, then the useful lines of its last stderr (not their tail). */
function crashText(exit: ExitInfo, error: unknown): string {
  const stderrTail = (error as { details?: { stderrTail?: readonly string[] } }).details?.stderrTail ?? [];
  const below = crashSummary(stderrTail).map((line) => `\n  ${line}`);
  return `the plugin ${exitText(exit)} before answering${below.join("")}`;
}
