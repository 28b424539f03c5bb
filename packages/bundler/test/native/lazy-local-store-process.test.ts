import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { builtinSqliteDriver } from "@executa/host/local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildExecutables } from "../../src/pipeline/build-executables.js";
import type { BuildExecutablesResult } from "../../src/pipeline/finish-build.js";
import { bunRuntime } from "../../src/runtime/bun.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/temp-dir.js";

// A plugin with mcpLocalFallback() pays for its store only once a tool stores something
// over MCP: the bundle compiles no WebAssembly and loads no JSON Schema validator before,
// and the default binary (Bun) carries no WebAssembly SQLite at all: it has bun:sqlite.
const BUILD_TIMEOUT_MS = 600_000;
const COUNTER = fileURLToPath(new URL("./wasm-counter.cjs", import.meta.url));
/** The first bytes of every WebAssembly module (`\0asm`, version 1) in base64 (6 bytes: no padding), as a bundle embeds them. */
const WASM_BASE64_HEADER = Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0]).toString("base64");

const INITIALIZE = {
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "lazy-test", version: "1" },
  },
};
const put = { method: "tools/call", params: { name: "put", arguments: { key: "k", text: "v" } } };

/**
 * Runs `command` with `args`, sends each request (ids from 1) and, over MCP, the
 * `initialized` notification after the first; once the last answer is in, closes stdin
 * and resolves with the answers and stderr when the process has exited.
 */
function exchange(
  command: string,
  args: string[],
  dataDir: string,
  requests: { method: string; params?: unknown }[],
): Promise<{ answers: { id: number; result?: unknown; error?: unknown }[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { PATH: process.env.PATH ?? "", EXECUTA_MCP_DATA_DIR: dataDir },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const answers: { id: number; result?: unknown; error?: unknown }[] = [];
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      for (let end = stdout.indexOf("\n"); end !== -1; end = stdout.indexOf("\n")) {
        answers.push(JSON.parse(stdout.slice(0, end)));
        stdout = stdout.slice(end + 1);
      }
      if (answers.some((answer) => answer.id === requests.length)) child.stdin.end();
    });
    child.on("error", reject);
    child.on("close", () => resolve({ answers, stderr }));
    requests.forEach((request, index) => {
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: index + 1, ...request })}\n`);
      if (index === 0 && args.includes("--mcp"))
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    });
  });
}

const compiledWasm = (stderr: string) => Number(/wasm-compiled: (\d+)/.exec(stderr)?.[1]);

describe("a plugin with mcpLocalFallback(), built for this platform", () => {
  let out: Awaited<ReturnType<typeof tempDir>>;
  let result: BuildExecutablesResult;
  let bundle: (mode: "--mcp" | "--executa") => string[];

  beforeAll(async () => {
    out = await tempDir("lazy-local-store");
    result = await buildExecutables({
      entry: fixture("mcp-fallback/main.ts"),
      outDir: out.path,
      quiet: true,
    });
    bundle = (mode) => ["--require", COUNTER, result.bundle.path, ...(mode === "--mcp" ? ["--mcp"] : [])];
  }, BUILD_TIMEOUT_MS);
  afterAll(() => out?.remove());

  it("bundles no JSON Schema validator (the local host's, which the fallback never uses)", () => {
    const sources = JSON.parse(readFileSync(result.bundle.sourceMap, "utf8")).sources as string[];
    expect(sources.some((source) => source.includes("mcp-fallback"))).toBe(true);
    expect(sources.filter((source) => /[\\/]ajv/.test(source))).toEqual([]);
  });

  it("compiles no WebAssembly until a tool stores something over MCP", async () => {
    const data = join(out.path, "node-data");
    await mkdir(data);
    const overExecuta = await exchange(process.execPath, bundle("--executa"), data, [{ method: "describe" }]);
    expect(overExecuta.answers[0]?.result, overExecuta.stderr).toMatchObject({
      name: "mcp-fallback-fixture",
    });
    expect(compiledWasm(overExecuta.stderr)).toBe(0);

    const listing = await exchange(process.execPath, bundle("--mcp"), data, [
      INITIALIZE,
      { method: "tools/list" },
    ]);
    expect(listing.answers.at(-1)?.result, listing.stderr).toMatchObject({ tools: expect.any(Array) });
    expect(compiledWasm(listing.stderr)).toBe(0);
    expect(existsSync(join(data, "storage.db"))).toBe(false);

    // The control: a storage call opens the store, on WebAssembly where this Node has no SQLite.
    const storing = await exchange(process.execPath, bundle("--mcp"), data, [INITIALIZE, put]);
    expect(storing.answers.at(-1)?.result, storing.stderr).toMatchObject({
      structuredContent: { generation: 1 },
    });
    expect(compiledWasm(storing.stderr)).toBe(builtinSqliteDriver() ? 0 : 1);
  });

  it("the Bun binary carries no WebAssembly and stores on bun:sqlite, in WAL mode", async () => {
    const binary = result.binaries[0]!;
    expect(binary.runtime).toBe("bun");
    expect(readFileSync(result.bundle.path, "utf8")).toContain(WASM_BASE64_HEADER);
    expect((await bunRuntime.embeddedCode(binary.path)).toString("utf8")).not.toContain(WASM_BASE64_HEADER);

    const data = join(out.path, "bun-data");
    await mkdir(data);
    const storing = await exchange(binary.path, ["--mcp"], data, [INITIALIZE, put]);
    expect(storing.answers.at(-1)?.result, storing.stderr).toMatchObject({
      structuredContent: { generation: 1 },
    });
    // The header's write version (byte 18): 2 for WAL; the WebAssembly SQLite writes 1.
    expect(readFileSync(join(data, "storage.db"))[18]).toBe(2);
  });
});
