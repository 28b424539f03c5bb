import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { build } from "tsup";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuntimeName } from "../../src/index.js";
import { executa } from "../../src/preset/executa.js";
import { drive, invoke } from "../helpers/drive.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/temp-dir.js";

const BUILD_TIMEOUT_MS = 300_000;
const STRAY_TEXTS = [
  "stray console.log",
  "stray console.info",
  "stray console.debug",
  "stray console.dirxml",
  "console.dir",
  "console.table",
  "stray process.stdout.write",
];

// A Bun executable writes frames through Bun's own stdout sink and never creates
// process.stdout, whose console methods Bun prints natively: each way of writing to
// stdout from a tool is checked on each runtime's binary.
describe.each<RuntimeName>(["bun", "node"])("stdout written by a tool, in a %s executable", (runtime) => {
  let out: Awaited<ReturnType<typeof tempDir>>;
  let binary = "";

  beforeAll(async () => {
    out = await tempDir(`noisy-${runtime}`);
    await build({
      ...executa({ entry: fixture("noisy-plugin/main.ts"), outDir: out.path, quiet: true, runtime }),
      config: false,
    });
    binary = join(out.path, "noisy-fixture");
  }, BUILD_TIMEOUT_MS);
  afterAll(() => out?.remove());

  it("goes to stderr: stdout carries the answer and nothing else", async () => {
    const { outcomes, stray, stderr, exitCode } = await drive({ command: binary, args: [] }, [
      { method: "describe" },
      invoke("noisy"),
      invoke("noisy"),
    ]);
    expect(outcomes[1]).toEqual({ result: expect.objectContaining({ success: true }) });
    expect(outcomes[2]).toEqual({ result: expect.objectContaining({ success: true }) });
    expect(stray).toEqual([]);
    for (const text of STRAY_TEXTS) expect(stderr).toContain(text);
    expect(exitCode).toBe(0);
  });

  // Repeated: the pipe can close between a chunk's write and its flush, or during either
  // (a Bun sink's write can start a flush of its own, whose EPIPE must not go unheard).
  it("exits 0 quietly when the host closes its stdout (EPIPE), without a stack, every time", async () => {
    for (let run = 0; run < 8; run++) {
      const child = spawn(binary, [], { stdio: ["pipe", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = once(child, "exit");
      // The plugin exits, as it should, as soon as it hears EPIPE: maybe before all the
      // writes below reach it, and those then fail on this side with EPIPE too.
      const stdinErrors: (string | undefined)[] = [];
      child.stdin.on("error", (error: NodeJS.ErrnoException) => stdinErrors.push(error.code));
      child.stdin.write('{"jsonrpc":"2.0","id":0,"method":"describe"}\n');
      await once(child.stdout, "data");
      child.stdout.destroy();
      for (let i = 1; i <= 200; i++)
        child.stdin.write(
          `${JSON.stringify({ jsonrpc: "2.0", id: i, method: "invoke", params: invoke("noisy").params })}\n`,
        );
      expect(await exited).toEqual([0, null]);
      expect(stdinErrors.filter((code) => code !== "EPIPE")).toEqual([]);
      expect(stderr).not.toMatch(/EPIPE[\s\S]*\n\s+at /);
      expect(stderr).not.toContain("unhandled rejection");
    }
  });
});
