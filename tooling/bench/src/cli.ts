import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type BenchMode, benchConfig } from "./config.js";
import { staleBuild } from "./freshness.js";
import { renderMarkdown } from "./report/markdown.js";
import { writeResults } from "./report/write-results.js";
import { runBench } from "./run.js";
import { benchPaths, type Subject } from "./subjects.js";

const USAGE = `usage: node dist/cli.js [--fast | --smoke] [--out DIR] [--only ID,ID] [--runs N] [--extra ID=FILE]...

  (default)   full run; writes results/results.{json,md} and results/ratios.svg
  --fast      smaller sizes, same figures; prints the table, writes only with --out
  --smoke     tiny sizes (checks that everything runs; numbers mean nothing)
  --out DIR   where to write the results
  --only IDS  measure only these subjects (baseline always): toolbox-sea, toolbox-bun,
              toolbox-bun-bytecode, toolbox-node, core-plugin, dto-plugin, floor; and mcp
              for the MCP figures (every MCP subject against the official SDK's server);
              naming figures runs only those: first-contact, cold-start, throughput,
              latency, large-argument, dataset, validation, idle-rss (e.g. --only
              first-contact,toolbox-sea for an A/B run of the fresh-process figures)
  --runs N    timed runs per figure (at least 5 for figures worth quoting)
  --extra ID=FILE  also measure FILE as an SDK subject: "node FILE" for .js/.cjs/.mjs, else the
              executable itself (e.g. a plugin on a local copy of core, or another binary)`;

/** An `ID=FILE` argument as an SDK subject: a .js/.cjs/.mjs run by this node, else an executable. */
function extraSubject(spec: string): Subject {
  const at = spec.indexOf("=");
  if (at <= 0 || at === spec.length - 1) throw new Error(`--extra wants ID=FILE, got "${spec}"`);
  const id = spec.slice(0, at);
  const file = resolve(spec.slice(at + 1));
  return {
    id,
    label: id,
    role: "sdk",
    line: /\.[cm]?js$/.test(file) ? { command: process.execPath, args: [file] } : { command: file, args: [] },
    serves: true,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      fast: { type: "boolean" },
      smoke: { type: "boolean" },
      out: { type: "string" },
      only: { type: "string" },
      runs: { type: "string" },
      extra: { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (values.fast && values.smoke) throw new Error("--fast and --smoke exclude each other");
  const mode: BenchMode = values.smoke ? "smoke" : values.fast ? "fast" : "full";
  const runs = values.runs === undefined ? undefined : Number(values.runs);
  const config = benchConfig(mode, runs === undefined ? {} : { runs });
  const paths = benchPaths();
  const stale = staleBuild(join(paths.repoRoot, "packages", "core"));
  if (stale) process.stderr.write(`bench: warning: @executa/core build may be stale: ${stale}\n`);

  const results = await runBench({
    config,
    only: values.only?.split(",").map((id) => id.trim()),
    extra: (values.extra ?? []).map(extraSubject),
    log: (line) => process.stderr.write(`bench: ${line}\n`),
    paths,
  });
  process.stdout.write(`${renderMarkdown(results)}\n`);
  const out = values.out ?? (mode === "full" ? join(paths.benchDir, "results") : undefined);
  if (out) {
    const written = writeResults(results, out);
    const shown = Object.values(written).map((file) => relative(process.cwd(), file));
    process.stderr.write(`bench: wrote ${shown.join(", ")}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
