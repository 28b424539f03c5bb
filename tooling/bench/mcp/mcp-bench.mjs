// MCP figures, side by side: a built sample plugin serving MCP against the same tool on the
// official MCP SDK server (sdk-server.mjs). Prints a Markdown table; writes nothing.
//
//   node tooling/bench/mcp/mcp-bench.mjs [--runs N] [--calls N]
//
// Cold start: spawn → `initialize` + `notifications/initialized` + `tools/list` written at
// once → the `tools/list` answer read. Throughput: a fresh process per run, initialized and
// warmed up by the same burst, then N `tools/call base64_encode` written back to back,
// timed to the last answer. Median of the runs (subjects interleaved run by run), min–max.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const SUBJECTS = [
  {
    id: "mcp-sdk",
    label: "MCP SDK McpServer (node)",
    command: process.execPath,
    args: [fileURLToPath(new URL("./sdk-server.mjs", import.meta.url))],
    reference: true,
  },
  {
    id: "toolbox-node",
    label: "toolbox.cjs --mcp (node)",
    command: process.execPath,
    args: [`${repo}apps/toolbox/dist/toolbox.cjs`, "--mcp"],
  },
  {
    id: "toolbox-auto",
    label: "toolbox.cjs, detected (node)",
    command: process.execPath,
    args: [`${repo}apps/toolbox/dist/toolbox.cjs`],
  },
  {
    id: "toolbox-bin",
    label: "toolbox binary --mcp",
    command: `${repo}apps/toolbox/dist/toolbox`,
    args: ["--mcp"],
  },
];

const INITIALIZE = {
  jsonrpc: "2.0",
  id: "init",
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "mcp-bench", version: "1" },
  },
};
const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };

const frame = (message) => `${JSON.stringify(message)}\n`;
const call = (id) =>
  frame({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "base64_encode", arguments: { text: "hello, world" } },
  });

/** A subject process whose stdout lines are counted and searched as they come. */
function start(subject) {
  const child = spawn(subject.command, subject.args, { stdio: ["pipe", "pipe", "ignore"] });
  const state = { answered: 0, waiters: [] };
  let pending = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    pending += chunk;
    let lf = pending.indexOf("\n");
    while (lf !== -1) {
      const line = pending.slice(0, lf);
      pending = pending.slice(lf + 1);
      if (line.includes('"result"') || line.includes('"error"')) state.answered += 1;
      for (const waiter of [...state.waiters]) waiter(line);
      lf = pending.indexOf("\n");
    }
  });
  const until = (test) =>
    new Promise((resolve) => {
      const waiter = (line) => {
        if (!test(line)) return;
        state.waiters.splice(state.waiters.indexOf(waiter), 1);
        resolve();
      };
      state.waiters.push(waiter);
    });
  const stop = () =>
    new Promise((resolve) => {
      child.once("exit", resolve);
      child.stdin.end();
    });
  return { child, state, until, stop };
}

async function coldStart(subject) {
  const began = process.hrtime.bigint();
  const proc = start(subject);
  const listed = proc.until((line) => line.includes('"id":"list"'));
  proc.child.stdin.write(
    frame(INITIALIZE) + frame(INITIALIZED) + frame({ jsonrpc: "2.0", id: "list", method: "tools/list" }),
  );
  await listed;
  const ms = Number(process.hrtime.bigint() - began) / 1e6;
  await proc.stop();
  return ms;
}

async function burst(proc, calls, firstId) {
  const target = proc.state.answered + calls;
  const done = proc.until(() => proc.state.answered >= target);
  let text = "";
  for (let i = 0; i < calls; i++) text += call(firstId + i);
  const began = process.hrtime.bigint();
  proc.child.stdin.write(text);
  await done;
  return Number(process.hrtime.bigint() - began) / 1e6;
}

async function throughput(subject, calls) {
  const proc = start(subject);
  const ready = proc.until((line) => line.includes('"id":"init"'));
  proc.child.stdin.write(frame(INITIALIZE) + frame(INITIALIZED));
  await ready;
  await burst(proc, calls, 1);
  const ms = await burst(proc, calls, calls + 1);
  await proc.stop();
  return (calls / ms) * 1000;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main() {
  const { values } = parseArgs({ options: { runs: { type: "string" }, calls: { type: "string" } } });
  const runs = Number(values.runs ?? 9);
  const calls = Number(values.calls ?? 20_000);
  const subjects = SUBJECTS.filter(
    (subject) => existsSync(subject.command) && subject.args.every((a) => a.startsWith("-") || existsSync(a)),
  );
  const cold = new Map(subjects.map((s) => [s.id, []]));
  const rate = new Map(subjects.map((s) => [s.id, []]));
  for (let run = 0; run < runs + 1; run++) {
    // Interleaved, rotating the order; the first round is a warm-up (disk cache) and dropped.
    const order = subjects.map((_, i) => subjects[(i + run) % subjects.length]);
    for (const subject of order) {
      const ms = await coldStart(subject);
      if (run > 0) cold.get(subject.id).push(ms);
    }
    for (const subject of order) {
      const perS = await throughput(subject, calls);
      if (run > 0) rate.get(subject.id).push(perS);
    }
  }
  const reference = subjects.find((s) => s.reference);
  const refCold = median(cold.get(reference.id));
  const refRate = median(rate.get(reference.id));
  const rows = subjects.map((s) => {
    const c = cold.get(s.id);
    const r = rate.get(s.id);
    return `| ${s.label} | ${median(c).toFixed(1)} (${Math.min(...c).toFixed(1)}–${Math.max(...c).toFixed(1)}) | ${(median(c) / refCold).toFixed(2)} | ${Math.round(median(r))} (${Math.round(Math.min(...r))}–${Math.round(Math.max(...r))}) | ${(median(r) / refRate).toFixed(2)} |`;
  });
  process.stdout.write(
    [
      `MCP: ${runs} runs, ${calls} pipelined tools/call per throughput run, node ${process.version}`,
      "",
      "| subject | cold start ms | ÷ SDK | tools/call per s | ÷ SDK |",
      "| --- | --- | --- | --- | --- |",
      ...rows,
      "",
    ].join("\n"),
  );
}

await main();
