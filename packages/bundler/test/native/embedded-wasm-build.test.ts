import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { builtinSqliteDriver } from "@executa/host/local";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { extract } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildExecutables } from "../../src/pipeline/build-executables.js";
import type { BuildExecutablesResult } from "../../src/pipeline/finish-build.js";
import { hostPlatform } from "../../src/platform/platform-key.js";
import { KNOWN_PLATFORMS } from "../../src/platform/platforms.js";
import { bunRuntime } from "../../src/runtime/bun.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/temp-dir.js";

// A plugin with the local MCP fallback keeps its storage in SQLite compiled to WebAssembly:
// the build embeds the .wasm, so all six platforms build and a binary needs no file beside it.
// A Bun binary keeps it in bun:sqlite instead. And it pays for its store only once a tool
// stores something over MCP: the bundle compiles no WebAssembly and loads no JSON Schema
// validator before, and the default binary (Bun) carries no WebAssembly SQLite at all.
const BUILD_TIMEOUT_MS = 900_000;
const name = "mcp-fallback-fixture";
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

/** Runs a binary with `--mcp` under the MCP SDK client, calls each tool in turn, then stops it. */
async function overMcp(command: string, dataDir: string, calls: [string, Record<string, unknown>][]) {
  const transport = new StdioClientTransport({
    command,
    args: ["--mcp"],
    cwd: dataDir,
    env: { PATH: process.env.PATH ?? "", EXECUTA_MCP_DATA_DIR: dataDir },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "embedded-wasm-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const results: unknown[] = [];
    for (const [tool, args] of calls) {
      const result = await client.callTool({ name: tool, arguments: args });
      results.push(result.isError ? { error: result.content, stderr } : result.structuredContent);
    }
    return results;
  } finally {
    await client.close();
  }
}

// One build for the file: its binary for this machine is the Bun single executable the
// last test drives.
let out: Awaited<ReturnType<typeof tempDir>>;
let result: BuildExecutablesResult;

beforeAll(async () => {
  out = await tempDir("embedded-wasm");
  result = await buildExecutables({
    entry: fixture("mcp-fallback/main.ts"),
    outDir: out.path,
    targets: "all",
    quiet: true,
  });
}, BUILD_TIMEOUT_MS);
afterAll(() => out?.remove());

describe("a plugin using mcpLocalFallback(), built with targets: all", () => {
  it("builds and verifies a binary and an archive for each of the six platforms, with nothing in lib/", async () => {
    expect(result.binaries.map((binary) => binary.platform).sort()).toEqual([...KNOWN_PLATFORMS].sort());
    expect(result.archives).toHaveLength(KNOWN_PLATFORMS.length);
    for (const binary of result.binaries) expect(binary.checks.length, binary.platform).toBeGreaterThan(0);
    expect(result.binaries.find((binary) => binary.platform === "linux-x86_64")?.verification).toBe("native");
    expect(existsSync(join(out.path, "lib"))).toBe(false);
  });

  it("the installed linux-x86_64 binary stores over MCP, and a second run reads it back", async () => {
    const home = join(out.path, "installed");
    await mkdir(home);
    const archive = result.archives.find((entry) => entry.platform === "linux-x86_64")!;
    await extract({ file: archive.path, cwd: home });
    expect((await readdir(home)).sort()).toEqual([
      "THIRD_PARTY_NOTICES.txt",
      "bin",
      "manifest.json",
      "sbom.cdx.json",
    ]);
    const binary = join(home, "bin", name);
    const data = join(out.path, "data");
    await mkdir(data);

    const first = await overMcp(binary, data, [
      ["put", { key: "todo", text: "buy milk" }],
      ["put", { key: "todo", text: "buy oat milk" }],
      ["get", { key: "todo" }],
    ]);
    expect(first).toEqual([
      { generation: 1 },
      { generation: 2 },
      { exists: true, value: { text: "buy oat milk" } },
    ]);
    expect(existsSync(join(data, "storage.db"))).toBe(true);

    const second = await overMcp(binary, data, [
      ["get", { key: "todo" }],
      ["get", { key: "other" }],
    ]);
    expect(second).toEqual([{ exists: true, value: { text: "buy oat milk" } }, { exists: false }]);
  });
});

describe("the same plugin in a Bun single executable", () => {
  it("stores over MCP (on bun:sqlite: Bun has SQLite built in), from a folder of its own", async () => {
    // This machine's binary of the build: Bun is the default runtime of every platform but Windows.
    const binary = result.binaries.find((entry) => entry.platform === hostPlatform());
    expect(binary?.runtime).toBe("bun");
    const alone = join(out.path, "alone");
    await mkdir(alone);
    const archive = result.archives.find((entry) => entry.platform === binary?.platform)!;
    await extract({ file: archive.path, cwd: alone });
    const [put, got] = await overMcp(join(alone, "bin", name), alone, [
      ["put", { key: "k", text: "v" }],
      ["get", { key: "k" }],
    ]);
    expect(put).toEqual({ generation: 1 });
    expect(got).toEqual({ exists: true, value: { text: "v" } });
  });
});

describe("the same build, for this platform: the store paid for only once a tool stores something", () => {
  const bundle = (mode: "--mcp" | "--executa") => [
    "--require",
    COUNTER,
    result.bundle.path,
    ...(mode === "--mcp" ? ["--mcp"] : []),
  ];

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
    const binary = result.binaries.find((entry) => entry.platform === hostPlatform())!;
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
