import { writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MAX_FRAME_BYTES } from "../../src/wire/limits.js";
import { type FixtureProcess, invoke, spawnFixture } from "../helpers/spawn-fixture.js";

// Every frame the plugin writes stays under the 16 MiB line ceiling, whatever it is sent
// or whatever its tools throw: a host drops an over-ceiling line, so the request would
// go unanswered until its timeout. Runs over real pipes (run `pnpm build` first).
const FIXTURE = fileURLToPath(new URL("../fixtures/frame-ceiling-plugin.mjs", import.meta.url));
const MiB = 1024 * 1024;

let plugin: FixtureProcess;
afterEach(() => {
  plugin?.child.kill("SIGKILL");
});

/** Every stdout line is within the ceiling, and the plugin still answers a request. */
async function expectWithinCeilingAndServing(p: FixtureProcess): Promise<void> {
  const health = await p.call("health", undefined, 20_000);
  expect(health.result).toMatchObject({ status: "ready" });
  for (const line of p.stdoutLines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_FRAME_BYTES);
  expect(p.child.exitCode).toBeNull();
}

describe("error frames stay under the frame ceiling", () => {
  it("answers a 9 MiB unknown tool name with -32601 and a short preview of the name", async () => {
    plugin = spawnFixture({}, FIXTURE);
    const name = "t".repeat(9 * MiB);
    const frame = await plugin.call("invoke", invoke(name), 20_000);
    expect(frame.error).toMatchObject({
      code: -32601,
      message: expect.stringContaining(`(${name.length} chars)`),
      data: { tool_length: name.length, available: expect.arrayContaining(["big"]) },
    });
    expect(frame.error!.message.length).toBeLessThan(1_000);
    await expectWithinCeilingAndServing(plugin);
  });

  it("answers a 9 MiB unknown method name with -32601 and a short message", async () => {
    plugin = spawnFixture({}, FIXTURE);
    const frame = await plugin.call("m".repeat(9 * MiB), undefined, 20_000);
    expect(frame.error?.code).toBe(-32601);
    expect(frame.error!.message.length).toBeLessThan(1_000);
    await expectWithinCeilingAndServing(plugin);
  });

  it("drops oversized error data but keeps the code of a tool's RpcError", async () => {
    plugin = spawnFixture({}, FIXTURE);
    const frame = await plugin.call("invoke", invoke("huge_rpc_error"), 20_000);
    expect(frame.error).toEqual({
      code: -32050,
      message: "custom failure",
      data: { data_omitted: "too_large" },
    });
    await expectWithinCeilingAndServing(plugin);
  });

  it("cuts a 20 MiB exception message in a -32603 answer", async () => {
    plugin = spawnFixture({}, FIXTURE);
    const frame = await plugin.call("invoke", invoke("huge_crash"), 20_000);
    expect(frame.error?.code).toBe(-32603);
    expect(frame.error!.message.length).toBeLessThan(10_000);
    await expectWithinCeilingAndServing(plugin);
  });

  it("lists the first 100 of 200 000 issues and counts the rest", async () => {
    plugin = spawnFixture({}, FIXTURE);
    const frame = await plugin.call("invoke", invoke("many_issues", { n: 200_000 }), 20_000);
    expect(frame.error).toMatchObject({ code: -32602, data: { issues_not_shown: 199_900 } });
    expect((frame.error!.data as { issues: unknown[] }).issues).toHaveLength(100);
    await expectWithinCeilingAndServing(plugin);
  });
});

describe("results too large for a line when the file transport cannot be written", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "executa-ceiling-"));
    writeFileSync(join(dir, "not-a-dir"), "");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const unusable = () => ({
    "a TMPDIR that does not exist": join(dir, "missing", "deeper"),
    "a TMPDIR that is a file": join(dir, "not-a-dir"),
  });

  for (const label of ["a TMPDIR that does not exist", "a TMPDIR that is a file"] as const) {
    it(`answers a 26 MB result with -32603 and the reason, given ${label}`, async () => {
      plugin = spawnFixture({ TMPDIR: unusable()[label] }, FIXTURE);
      const frame = await plugin.call("invoke", invoke("big", { n: 26_000_000 }), 30_000);
      expect(frame.error).toMatchObject({
        code: -32603,
        message: expect.stringMatching(/exceeds the 16777216-byte frame limit.*file transport: E[A-Z]+/),
        data: { max_frame_bytes: MAX_FRAME_BYTES },
      });
      // A result that fits in a line still goes inline.
      const small = await plugin.call("invoke", invoke("big", { n: 600_000 }), 20_000);
      expect(small.result).toMatchObject({ success: true });
      await expectWithinCeilingAndServing(plugin);
    });
  }
});

describe("arguments nested too deep", () => {
  for (const depth of [100_000, 1_000_000]) {
    it(`answers ${depth} nesting levels with -32602 and keeps serving`, async () => {
      plugin = spawnFixture({}, FIXTURE);
      const args = `{"x":${"[".repeat(depth)}${"]".repeat(depth)}}`;
      plugin.send(
        `{"jsonrpc":"2.0","id":"deep","method":"invoke","params":{"tool":"echo","arguments":${args}}}`,
      );
      const frame = await plugin.reply("deep", 20_000);
      expect(frame.error).toMatchObject({
        code: -32602,
        message: expect.stringContaining("nested deeper than 64 levels"),
      });
      await expectWithinCeilingAndServing(plugin);
    });
  }

  it("accepts arguments at exactly the documented depth", async () => {
    plugin = spawnFixture({}, FIXTURE);
    // `arguments` is level 1; 63 nested arrays below it make 64.
    const args = `{"x":${"[".repeat(63)}${"]".repeat(63)}}`;
    plugin.send(`{"jsonrpc":"2.0","id":"ok","method":"invoke","params":{"tool":"echo","arguments":${args}}}`);
    expect((await plugin.reply("ok")).result).toMatchObject({ success: true });
    const deeper = `{"x":${"[".repeat(64)}${"]".repeat(64)}}`;
    plugin.send(
      `{"jsonrpc":"2.0","id":"no","method":"invoke","params":{"tool":"echo","arguments":${deeper}}}`,
    );
    expect((await plugin.reply("no")).error?.code).toBe(-32602);
  });
});
