#!/usr/bin/env node
// Cold start of a built plugin: spawn → `describe` answered, for the single executable,
// for `node NAME.cjs`, and `node -e 0` (spawn → exit) as the floor. Median of N runs
// after warm-up runs. Not a test: figures depend on the machine.
//
//   node packages/bundler/bench/cold-start.mjs [dist-dir] [--runs 9] [--warmup 2]
//
// Without a dist dir it first builds test/fixtures/decorated-plugin (or the core fixture
// when @executa/decorators is not built) into a temp dir. Needs `pnpm build` first.
import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: "string", default: "9" }, warmup: { type: "string", default: "2" } },
});
const runs = Math.max(5, Number(values.runs));
const warmup = Math.max(0, Number(values.warmup));
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

async function distDir() {
  if (positionals[0]) return { dir: positionals[0], cleanup: async () => {} };
  const { buildPlugin } = await import(here("../dist/index.js"));
  let entry = here("../test/fixtures/decorated-plugin/main.ts");
  try {
    createRequire(entry).resolve("@executa/decorators");
  } catch {
    entry = here("../test/fixtures/core-plugin/main.ts");
  }
  const dir = await mkdtemp(join(tmpdir(), "executa-bench-"));
  process.stderr.write(`building ${entry} into ${dir} …\n`);
  await buildPlugin({ entry, outDir: dir, quiet: true });
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Spawns, sends describe at once, resolves with ms until its answer arrives. */
function timeDescribe(command, args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"] });
    let buffered = "";
    child.stdout.on("data", (chunk) => {
      buffered += chunk;
      for (const line of buffered.split("\n").slice(0, -1)) {
        const frame = JSON.parse(line);
        if (frame.id === 1) {
          const ms = performance.now() - started;
          child.kill("SIGKILL");
          if (!frame.result) reject(new Error(`describe failed: ${line}`));
          resolve(ms);
        }
      }
      buffered = buffered.slice(buffered.lastIndexOf("\n") + 1);
    });
    child.once("error", reject);
    child.once(
      "exit",
      (code) => code !== null && code !== 0 && reject(new Error(`${command} exited ${code}`)),
    );
    child.stdin.on("error", () => {});
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "describe" })}\n`);
  });
}

/** Spawns and resolves with ms until exit. */
function timeExit(command, args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", () => resolve(performance.now() - started));
  });
}

/** Runs the variants in interleaved rounds, so load changes on the machine hit all of them alike. */
async function measure(variants) {
  for (let i = 0; i < warmup; i++) for (const variant of variants) await variant.once();
  const samples = variants.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [index, variant] of variants.entries()) samples[index].push(await variant.once());
  }
  return variants.map((variant, index) => {
    const sorted = samples[index].sort((a, b) => a - b);
    return {
      label: variant.label,
      median: sorted[Math.floor(sorted.length / 2)],
      min: sorted[0],
      max: sorted.at(-1),
    };
  });
}

const { dir, cleanup } = await distDir();
try {
  const registration = JSON.parse(readFileSync(join(dir, "executa.json"), "utf8"));
  const bundle = join(dir, registration.bundle);
  const binary = join(dir, registration.command[0]);
  const results = await measure([
    { label: "binary (SEA)", once: () => timeDescribe(binary, []) },
    { label: `node ${registration.name}.cjs`, once: () => timeDescribe(process.execPath, [bundle]) },
    { label: "node -e 0 (spawn → exit)", once: () => timeExit(process.execPath, ["-e", "0"]) },
  ]);
  const fmt = (ms) => `${ms.toFixed(1).padStart(7)} ms`;
  console.log(
    `cold start, spawn → describe answered · ${registration.name} · median of ${runs} interleaved runs after ${warmup} warm-up`,
  );
  for (const r of results)
    console.log(`  ${r.label.padEnd(30)}${fmt(r.median)}  (min ${fmt(r.min)}, max ${fmt(r.max)})`);
  console.log(
    `  bundle ${(statSync(bundle).size / 1024).toFixed(1)} KiB · binary ${(statSync(binary).size / 2 ** 20).toFixed(1)} MiB · node ${process.version}`,
  );
} finally {
  await cleanup();
}
