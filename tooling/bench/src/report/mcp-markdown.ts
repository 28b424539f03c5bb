import { MCP_METRICS } from "../mcp/mcp-comparison.js";
import type { BenchResults, McpComparison, McpSubjectFigures } from "../results.js";
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
    ? ` (\`@modelcontextprotocol/sdk\` ${mcp.versions.sdk}, \`zod\` ${mcp.versions.zod})`
    : "";
  const out = [
    "",
    "## MCP: the same tool on the official MCP SDK server (same run)",
    "",
    "Cold start: `spawn` → `initialize`, `notifications/initialized` and `tools/list` written at once → " +
      "the `tools/list` answer read. Throughput: pipelined `tools/call base64_encode` in a fresh process " +
      "per run, initialized and warmed up by the same burst, timed to the last answer. " +
      `Reference: \`${mcp.reference}\`, McpServer + StdioServerTransport with a zod schema${versions}.`,
    "",
    `Measured: ${mcp.subjects.map((s) => `\`${s.id}\` = ${s.command.join(" ")}`).join("; ") || "nothing"}.`,
  ];
  if (mcp.skipped.length > 0) {
    out.push("", `Not measured: ${mcp.skipped.map((s) => `\`${s.id}\` (${s.reason})`).join("; ")}.`);
  }
  if (mcp.subjects.length === 0) return out;
  out.push("", table(["Figure", ...mcp.subjects.map((s) => s.label)], figureRows(mcp, calls)));
  return out;
}

function figureRows(mcp: McpComparison, calls: string): string[][] {
  const cells = (pick: (f: McpSubjectFigures) => Parameters<typeof sampleCell>[0]) =>
    mcp.subjects.map((s) => sampleCell(pick(mcp.figures[s.id] ?? {})));
  const rows = [
    ["Cold start, spawn → tools/list answered (ms)", ...cells((f) => f.coldStartMs)],
    [`Throughput, ${calls} pipelined tools/call (calls/s)`, ...cells((f) => f.throughputPerS)],
    ["CPU per tools/call during the bursts (µs, all threads)", ...cells((f) => f.cpuPerCallUs)],
  ];
  for (const m of MCP_METRICS) {
    const ratios = mcp.subjects.map((s) => {
      if (s.id === mcp.reference) return "1.00";
      const ratio = mcp.ratios.find((r) => r.subject === s.id && r.metric === m.key);
      return ratio ? num(ratio.ratio) : "—";
    });
    if (ratios.every((cell, i) => cell === "—" || mcp.subjects[i]!.id === mcp.reference)) continue;
    rows.push([`${m.label} ÷ SDK server (${m.better} is better)`, ...ratios]);
  }
  return rows;
}
