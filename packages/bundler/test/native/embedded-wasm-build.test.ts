import { existsSync } from "node:fs";
import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { extract } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildExecutables } from "../../src/pipeline/build-executables.js";
import type { BuildExecutablesResult } from "../../src/pipeline/finish-build.js";
import { hostPlatform } from "../../src/platform/platform-key.js";
import { KNOWN_PLATFORMS } from "../../src/platform/platforms.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/temp-dir.js";

// A plugin with the local MCP fallback keeps its storage in SQLite compiled to WebAssembly:
// the build embeds the .wasm, so all six platforms build and a binary needs no file beside it.
// A Bun binary keeps it in bun:sqlite instead.
const BUILD_TIMEOUT_MS = 900_000;
const name = "mcp-fallback-fixture";

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
