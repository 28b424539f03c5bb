import { httpCalls, MCP_METRICS } from "../mcp/mcp-comparison.js";
import { MCP_ERAS } from "../mcp/mcp-figures.js";
import type { BenchResults, McpComparison, McpEraFigures } from "../results.js";
import { num, sampleCell, table } from "./format.js";

/**
 * The MCP section: how the figures were taken, each subject's figures beside the official
 * SDK server's, and their ratios to it. Empty when the run did not measure MCP.
 */
export function mcpSection(results: BenchResults): string[] {
  const mcp = results.mcp;
  if (!mcp) return [];
  const calls = results.config.throughputCalls.toLocaleString("en-US");
  const versions = mcp.versions
    ? ` (\`@modelcontextprotocol/server\` ${mcp.versions.server}, \`zod\` ${mcp.versions.zod}; ` +
      `SDK v1 \`@modelcontextprotocol/sdk\` ${mcp.versions.sdk})`
    : "";
  const out = [
    "",
    "## MCP: the same tool on the official MCP SDK v2 server (same run)",
    "",
    "Each figure in both eras: 2025-era (`initialize` + `notifications/initialized`, revision 2025-06-18) and " +
      "2026-07-28 (`server/discover`, the `_meta` envelope on every request). Cold start: `spawn` → the opening " +
      "and `tools/list` written at once → the `tools/list` answer read. Stdio throughput: pipelined " +
      "`tools/call base64_encode` in a fresh process per run, opened and warmed up by the same burst, timed to " +
      `the last answer. HTTP throughput: ${httpCalls(results.config).toLocaleString("en-US")} \`tools/call\` POSTs, ` +
      `${mcp.httpConcurrency ?? "?"} in flight, to a fresh server per run after a session opened in the era and a ` +
      "warm-up burst. " +
      `Reference: \`${mcp.reference}\`, SDK v2 McpServer with a zod schema, \`serveStdio\` over stdio and ` +
      `\`createMcpHandler\` on node:http (via \`@modelcontextprotocol/node\`)${versions}.`,
    "",
    `Measured: ${mcp.subjects.map((s) => `\`${s.id}\` = ${s.command.join(" ")}${s.http ? ` (HTTP: ${s.http.join(" ")})` : ""}`).join("; ") || "nothing"}.`,
  ];
  if (mcp.skipped.length > 0) {
    out.push("", `Not measured: ${mcp.skipped.map((s) => `\`${s.id}\` (${s.reason})`).join("; ")}.`);
  }
  if (mcp.subjects.length === 0) return out;
  out.push("", table(["Figure", ...mcp.subjects.map((s) => s.label)], figureRows(mcp, calls)));
  return out;
}

function figureRows(mcp: McpComparison, calls: string): string[][] {
  const rows: string[][] = [];
  for (const era of MCP_ERAS) {
    const cells = (pick: (f: McpEraFigures) => Parameters<typeof sampleCell>[0]) =>
      mcp.subjects.map((s) => sampleCell(pick(mcp.figures[s.id]?.[era] ?? {})));
    rows.push(
      [`${era}: cold start, spawn → tools/list answered (ms)`, ...cells((f) => f.coldStartMs)],
      [`${era}: stdio, ${calls} pipelined tools/call (calls/s)`, ...cells((f) => f.throughputPerS)],
      [`${era}: stdio CPU per tools/call (µs, all threads)`, ...cells((f) => f.cpuPerCallUs)],
      [`${era}: HTTP tools/call (calls/s)`, ...cells((f) => f.httpThroughputPerS)],
      [`${era}: HTTP CPU per tools/call (µs, server)`, ...cells((f) => f.httpCpuPerCallUs)],
    );
  }
  for (const m of MCP_METRICS) {
    const ratios = mcp.subjects.map((s) => {
      if (s.id === mcp.reference) return "1.00";
      const ratio = mcp.ratios.find((r) => r.subject === s.id && r.metric === m.key);
      return ratio ? num(ratio.ratio) : "—";
    });
    if (ratios.every((cell, i) => cell === "—" || mcp.subjects[i]!.id === mcp.reference)) continue;
    rows.push([`${m.era}: ${m.label} ÷ SDK v2 server (${m.better} is better)`, ...ratios]);
  }
  return rows;
}
