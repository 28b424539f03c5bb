import { readFileSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type FixtureProcess, invoke, spawnFixture } from "../helpers/spawn-fixture.js";

// A plugin built on core, spawned and driven over real pipes (run `pnpm build` first).
let plugin: FixtureProcess;
afterEach(() => {
  plugin?.child.kill("SIGKILL");
});

describe("framing and routing over real pipes", () => {
  it("answers describe and keeps serving after the first reply", async () => {
    plugin = spawnFixture();
    const first = await plugin.call("describe");
    expect(first.result).toMatchObject({ name: "echo-fixture", version: "1.0.0" });
    const second = await plugin.call("invoke", invoke("echo", { text: "again" }));
    expect(second.result).toMatchObject({ success: true, data: { echoed: { text: "again" } } });
    expect(plugin.child.exitCode).toBeNull();
  });

  it("answers a parse error with -32700 and id null, then serves the next line", async () => {
    plugin = spawnFixture();
    plugin.send("{not json");
    const after = await plugin.call("describe");
    expect(after.result).toBeDefined();
    expect(plugin.frames[0]).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: expect.stringContaining("Parse error") },
    });
  });

  it("answers invalid UTF-8 with -32700", async () => {
    plugin = spawnFixture();
    plugin.child.stdin.write(Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    await plugin.call("describe");
    expect(plugin.frames[0]).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it("answers non-requests with -32600, with their id when they have one", async () => {
    plugin = spawnFixture();
    plugin.send("[1,2,3]");
    plugin.send("7");
    plugin.send('{"id": 5}');
    plugin.send('{"jsonrpc":"1.0","id":6,"method":"describe"}');
    await plugin.call("describe");
    expect(plugin.frames.slice(0, 4).map((f) => [f.id, f.error?.code])).toEqual([
      [null, -32600],
      [null, -32600],
      [5, -32600],
      [6, -32600],
    ]);
  });

  it("handles notifications without answering them", async () => {
    plugin = spawnFixture();
    plugin.send({ jsonrpc: "2.0", method: "invoke", params: invoke("echo", { text: "n" }) });
    plugin.send({ jsonrpc: "2.0", method: "no_such_method" });
    const answer = await plugin.call("health");
    expect(answer.result).toMatchObject({ status: "ready" });
    await new Promise((r) => setTimeout(r, 100));
    expect(plugin.frames).toHaveLength(1);
  });

  it("answers an unknown method and an unknown tool with -32601 (tools listed)", async () => {
    plugin = spawnFixture();
    const method = await plugin.call("tools/list");
    expect(method.error).toMatchObject({ code: -32601, message: "Method not found: tools/list" });
    const tool = await plugin.call("invoke", invoke("nope"));
    expect(tool.error).toMatchObject({ code: -32601, message: "Unknown tool: nope" });
    expect((tool.error!.data as { available: string[] }).available).toContain("echo");
  });

  it("answers malformed invoke params and InvalidParamsError with -32602", async () => {
    plugin = spawnFixture();
    const noTool = await plugin.call("invoke", { name: "echo" });
    expect(noTool.error).toMatchObject({ code: -32602 });
    const badArgs = await plugin.call("invoke", { tool: "echo", arguments: [1] });
    expect(badArgs.error).toMatchObject({ code: -32602 });
    const thrown = await plugin.call("invoke", invoke("bad_args"));
    expect(thrown.error).toMatchObject({
      code: -32602,
      message: "bad arguments",
      data: { issues: [{ path: "x", message: "required" }] },
    });
  });

  it("answers ToolError as success:false and a crash as -32603 with the stack on stderr only", async () => {
    plugin = spawnFixture();
    const failed = await plugin.call("invoke", invoke("fail"));
    expect(failed.result).toMatchObject({ success: false, error: "expected failure" });
    const crashed = await plugin.call("invoke", invoke("crash"));
    expect(crashed.error).toMatchObject({ code: -32603, message: 'Tool "crash" failed: boom' });
    expect(JSON.stringify(crashed)).not.toContain("echo-plugin.mjs");
    // stderr is its own pipe: what the plugin wrote there before answering may still be on its way.
    await vi.waitFor(() => expect(plugin.stderr()).toContain("echo-plugin.mjs"), { timeout: 10_000 });
    const still = await plugin.call("describe");
    expect(still.result).toBeDefined();
  });

  it("answers an unserializable result with -32603 for that id and keeps serving", async () => {
    plugin = spawnFixture();
    const result = await plugin.call("invoke", invoke("bigint"));
    expect(result.error).toMatchObject({ code: -32603, message: expect.stringContaining("serialized") });
    expect((await plugin.call("health")).result).toMatchObject({ status: "ready" });
  });

  it("answers every one of 200 pipelined requests", async () => {
    plugin = spawnFixture();
    const lines = Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id: `p${i}`,
        method: "invoke",
        params: invoke("echo", { text: `${i}` }),
      }),
    );
    plugin.child.stdin.write(`${lines.join("\n")}\n`);
    const replies = await Promise.all(lines.map((_, i) => plugin.reply(`p${i}`)));
    expect(
      replies.every((r, i) => (r.result!.data as { echoed: { text: string } }).echoed.text === `${i}`),
    ).toBe(true);
  });

  it("discards a 17 MiB line with -32600 (id null) and serves the next request", async () => {
    plugin = spawnFixture();
    const huge = `{"jsonrpc":"2.0","id":1,"method":"invoke","params":{"tool":"echo","arguments":{"text":"${"z".repeat(17 * 1024 * 1024)}"}}}\n`;
    plugin.child.stdin.write(huge);
    const next = await plugin.call("describe", undefined, 20_000);
    expect(next.result).toBeDefined();
    expect(plugin.frames[0]).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe("the server over real pipes", () => {
  it("negotiates 2.0 when offered and 1.1 otherwise", async () => {
    plugin = spawnFixture();
    const v2 = await plugin.call("initialize", { protocolVersion: "2.0", clientInfo: { name: "t" } });
    expect(v2.result).toEqual({
      protocolVersion: "2.0",
      serverInfo: { name: "echo-fixture", version: "1.0.0" },
      client_capabilities: {},
      capabilities: {},
    });
    const v1 = await plugin.call("initialize", {});
    expect(v1.result).toMatchObject({ protocolVersion: "1.1" });
  });

  it("answers health with ready, and an invalid hook status as error", async () => {
    plugin = spawnFixture({ FIXTURE_HEALTH: "healthy" });
    const health = await plugin.call("health");
    expect(health.result).toMatchObject({ status: "error" });
    expect(String(health.result?.message)).toContain("healthy");
  });

  it("gives each invoke its context: invoke id, deadline, plugin name, credentials with env fallback", async () => {
    plugin = spawnFixture({ FIXTURE_KEY: "from-env" });
    const deadline = Date.now() + 30_000;
    const fromHost = await plugin.call(
      "invoke",
      invoke(
        "context",
        {},
        { invoke_id: "inv-1", deadline_ms: deadline, plugin_name: "echo", credentials: { FIXTURE_KEY: "k" } },
      ),
    );
    expect(fromHost.result?.data).toMatchObject({
      invokeId: "inv-1",
      tool: "context",
      deadlineMs: deadline,
      pluginName: "echo",
      credentials: { FIXTURE_KEY: "k" },
    });
    const fromEnv = await plugin.call("invoke", { tool: "context", invoke_id: "legacy-2" });
    expect(fromEnv.result?.data).toMatchObject({
      invokeId: "legacy-2",
      credentials: { FIXTURE_KEY: "from-env" },
    });
  });

  it("sends a response over 512 KiB by file transport: a private file holding the whole response", async () => {
    plugin = spawnFixture();
    const answer = await plugin.call("invoke", invoke("big", { n: 600 * 1024 }));
    expect(answer.result).toBeUndefined();
    const path = answer.__file_transport!;
    expect(path).toMatch(/executa-resp-.*\.json$/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const inner = JSON.parse(readFileSync(path, "utf8"));
    expect(inner).toMatchObject({ jsonrpc: "2.0", id: answer.id, result: { success: true } });
    expect(inner.result.data.text).toHaveLength(600 * 1024);
    await rm(path);
    const small = await plugin.call("invoke", invoke("big", { n: 10 }));
    expect(small.result).toMatchObject({ success: true });
  });

  it("keeps console.log and process.stdout.write from a tool off stdout", async () => {
    plugin = spawnFixture();
    const answer = await plugin.call("invoke", invoke("noisy"));
    expect(answer.result).toMatchObject({ success: true });
    expect(plugin.stdoutLines.every((line) => JSON.parse(line).jsonrpc === "2.0")).toBe(true);
    await vi.waitFor(
      () => {
        expect(plugin.stderr()).toContain("console.log from a tool");
        expect(plugin.stderr()).toContain("raw stdout write from a tool");
      },
      { timeout: 10_000 },
    );
  });

  it("survives an exception thrown later from a tool's timer", async () => {
    plugin = spawnFixture();
    await plugin.call("invoke", invoke("throw_later"));
    await vi.waitFor(() => expect(plugin.stderr()).toContain("late boom"), { timeout: 10_000 });
    expect((await plugin.call("health")).result).toMatchObject({ status: "ready" });
  });
});

describe("deadlines and concurrency over real pipes", () => {
  it("answers -32000 when the host deadline passes, ignores the late result and keeps serving", async () => {
    plugin = spawnFixture();
    const answer = await plugin.call(
      "invoke",
      invoke("sleep", { ms: 1_500 }, { deadline_ms: Date.now() + 200 }),
    );
    expect(answer.error).toMatchObject({ code: -32000, data: { tool: "sleep" } });
    expect((await plugin.call("describe")).result).toBeDefined();
    await new Promise((r) => setTimeout(r, 1_500));
    expect(plugin.frames.filter((f) => f.id === answer.id)).toHaveLength(1);
  });

  it("answers -32000 at the tool's declared timeout for a tool that never settles", async () => {
    plugin = spawnFixture();
    const answer = await plugin.call("invoke", invoke("hang"));
    expect(answer.error).toMatchObject({ code: -32000, message: 'Tool "hang" timed out after 1000 ms' });
  });

  it("runs at most `concurrency` invokes at once and never queues describe or health", async () => {
    plugin = spawnFixture({ FIXTURE_CONCURRENCY: "2" });
    const sleeps = Array.from({ length: 6 }, () => plugin.call("invoke", invoke("sleep", { ms: 300 })));
    const health = await plugin.call("health");
    const describe = await plugin.call("describe");
    const answers = await Promise.all(sleeps);
    // Both were answered before any queued invoke, though four invokes were waiting.
    const firstSleep = plugin.frames.indexOf(answers[0]!);
    expect(plugin.frames.indexOf(health)).toBeLessThan(firstSleep);
    expect(plugin.frames.indexOf(describe)).toBeLessThan(firstSleep);
    expect(answers.every((a) => a.result?.success)).toBe(true);
    const peak = await plugin.call("invoke", invoke("peak"));
    expect(peak.result?.data).toEqual({ peak: 2 });
  });
});
