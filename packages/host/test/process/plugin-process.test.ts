import { readdirSync } from "node:fs";
import {
  JsonRpcErrorCode,
  RoutingErrorCode,
  RpcError,
  SamplingErrorCode,
  ServerErrorCode,
  StorageErrorCode,
} from "@executa/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type HostError, isHostError } from "../../src/errors/host-error.js";
import { createLocalProviders, type LocalProviders } from "../../src/local/create-local-providers.js";
import { type ProgressEvent, spawnPlugin } from "../../src/process/plugin-process.js";
import { tempDir } from "../helpers/calls.js";
import { spawnFixture, stopAll } from "../helpers/fixtures.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let dir: ReturnType<typeof tempDir>;
let local: LocalProviders;

beforeAll(() => {
  dir = tempDir();
  local = createLocalProviders({ dataDir: dir.path, sampling: { mode: "echo" } });
});
afterEach(stopAll);
afterAll(async () => {
  await local.close();
  dir.remove();
});

describe("a v2 plugin", () => {
  it("negotiates 2.0, describes, and uses storage during an invoke", async () => {
    const plugin = await spawnFixture("v2-storage-plugin.mjs", { providers: local.providers });
    const { negotiated, manifest } = await plugin.start();
    expect(negotiated).toMatchObject({ protocolVersion: "2.0", initializeSupported: true });
    expect(negotiated.result?.client_capabilities).toEqual({ storage: { kv: true, files: false } });
    expect(manifest.name).toBe("v2-storage");
    expect(plugin.pluginName).toBe("v2-storage");

    const result = await plugin.invoke<{
      set: { etag: string; generation: number };
      got: { value: unknown };
    }>("remember", { key: "color", value: { favorite: "teal" } });
    expect(result.success).toBe(true);
    expect(result.data!.set.generation).toBe(1);
    expect(result.data!.got).toMatchObject({
      exists: true,
      value: { favorite: "teal" },
      etag: result.data!.set.etag,
    });
    // The value is in the local store, in the plugin's tool scope.
    expect(local.store.get("tool:local-user:v2-storage", "kv", "color")?.valueJson).toBe(
      '{"favorite":"teal"}',
    );

    expect(plugin.timings.spawnMs).toBeGreaterThan(0);
    expect(plugin.timings.describeMs).toBeGreaterThan(0);
    expect(plugin.timings.lastInvokeMs).toBeGreaterThan(0);
    expect(plugin.stderr.recent).toContain("invoking remember");
    expect(await plugin.health()).toEqual({ status: "ready", message: "", details: {}, implemented: true });

    const stopped = await plugin.stop();
    expect(stopped).toMatchObject({ code: 0, forced: false });
    expect(plugin.running).toBe(false);
  });

  it("stamps invoke_id, deadline_ms, plugin_name and credentials into the context", async () => {
    const plugin = await spawnFixture("v2-storage-plugin.mjs", { pluginName: "host-name-for-it" });
    await plugin.start();
    const before = Date.now();
    const result = await plugin.invoke<{ context: Record<string, unknown> }>(
      "echo_context",
      {},
      { credentials: { API_KEY: "sk-123" }, context: { extra: 1, invoke_id: "overridden" } },
    );
    const context = result.data!.context;
    expect(context.invoke_id).toMatch(UUID);
    expect(context.plugin_name).toBe("host-name-for-it");
    expect(context.credentials).toEqual({ API_KEY: "sk-123" });
    expect(context.extra).toBe(1);
    // The tool declares timeout: 7 (seconds).
    expect(context.deadline_ms as number).toBeGreaterThanOrEqual(before + 7000);
    expect(context.deadline_ms as number).toBeLessThanOrEqual(Date.now() + 7000);

    const own = await plugin.invoke<{ context: Record<string, unknown> }>(
      "echo_context",
      {},
      { invokeId: "my-id", timeoutMs: 2000 },
    );
    expect(own.data!.context.invoke_id).toBe("my-id");
    expect(own.data!.context).not.toHaveProperty("credentials");
    expect(own.data!.context.deadline_ms as number).toBeLessThanOrEqual(Date.now() + 2000);

    const deadline = Date.now() + 1234;
    const explicit = await plugin.invoke<{ context: Record<string, unknown> }>(
      "echo_context",
      {},
      { deadlineMs: deadline },
    );
    expect(explicit.data!.context.deadline_ms).toBe(deadline);
  });

  it("times out per the tool's declared timeout with -32000 and terminates the plugin", async () => {
    const plugin = await spawnFixture("v2-storage-plugin.mjs");
    await plugin.start();
    const started = Date.now();
    const error = await plugin.invoke("slow", { ms: 5000 }).catch((e: unknown) => e);
    expect(isHostError(error, "REQUEST_TIMEOUT")).toBe(true);
    expect((error as RpcError).code).toBe(ServerErrorCode.TOOL_TIMEOUT);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(3000);
    const exit = await plugin.exited;
    expect(exit).toEqual({ code: 0, signal: null }); // the fixture exits 0 on SIGTERM
    await expect(plugin.invoke("echo_context")).rejects.toMatchObject({ hostCode: "PLUGIN_EXITED" });
  });

  it('keeps the plugin running after a timeout with onInvokeTimeout: "keep"', async () => {
    const plugin = await spawnFixture("v2-storage-plugin.mjs", { onInvokeTimeout: "keep" });
    await plugin.start();
    await expect(plugin.invoke("slow", { ms: 1000 }, { timeoutMs: 100 })).rejects.toMatchObject({
      hostCode: "REQUEST_TIMEOUT",
    });
    expect((await plugin.invoke("slow", { ms: 1 })).success).toBe(true);
    expect(plugin.running).toBe(true);
    const controller = new AbortController();
    const aborted = plugin.invoke("slow", { ms: 1000 }, { signal: controller.signal, timeoutMs: 5000 });
    controller.abort(new Error("user gave up"));
    await expect(aborted).rejects.toThrow("user gave up");
    expect(plugin.activeInvokes).toBe(0);
  });

  it("routes reverse calls by invoke id and refuses to guess", async () => {
    const plugin = await spawnFixture("v2-storage-plugin.mjs", {
      providers: local.providers,
      onInvokeTimeout: "keep",
    });
    await plugin.start();
    const get = { method: "storage/get", params: { scope: "tool", key: "nothing" } };

    // One invoke active and no invoke id: the host falls back to it.
    const fallback = await plugin.invoke<{ result?: unknown }>("reverse", { ...get });
    expect(fallback.data!.result).toEqual({ exists: false, value: null });

    const unknown = await plugin.invoke<{ error: { code: number; data: unknown } }>("reverse", {
      ...get,
      invokeId: "not-an-active-invoke",
    });
    expect(unknown.data!.error).toMatchObject({
      code: JsonRpcErrorCode.INVALID_PARAMS,
      data: { errorCode: RoutingErrorCode.UNKNOWN_INVOKE_CONTEXT },
    });

    // Two invokes active and no invoke id: MISSING_INVOKE_CONTEXT; with its own id: fine.
    const slow = plugin.invoke("slow", { ms: 400 }, { timeoutMs: 5000 });
    const missing = await plugin.invoke<{ error: { code: number; data: unknown } }>("reverse", { ...get });
    const own = await plugin.invoke<{ result?: unknown }>("reverse", { ...get, invokeId: "own" });
    await slow;
    expect(missing.data!.error).toMatchObject({
      code: JsonRpcErrorCode.INVALID_PARAMS,
      data: { errorCode: RoutingErrorCode.MISSING_INVOKE_CONTEXT },
    });
    expect(own.data!.result).toEqual({ exists: false, value: null });
  });

  it("answers NOT_GRANTED for capabilities the manifest did not declare or the host withholds", async () => {
    const plugin = await spawnFixture("v2-storage-plugin.mjs", { providers: local.providers });
    await plugin.start();
    const sampling = await plugin.invoke<{ error: { code: number } }>("reverse", {
      method: "sampling/createMessage",
      params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 },
      invokeId: "own",
    });
    expect(sampling.data!.error.code).toBe(SamplingErrorCode.NOT_GRANTED);

    const withheld = await spawnFixture("v2-storage-plugin.mjs", {
      providers: local.providers,
      grantedCapabilities: ["llm.sample"],
    });
    await withheld.start();
    const storage = await withheld.invoke<{ error: { code: number } }>("remember", { key: "k", value: 1 });
    expect(storage.success).toBe(false);
    expect(JSON.parse(storage.error!).code).toBe(StorageErrorCode.NOT_GRANTED);
  });

  it("reports reverse calls, invokes and progress notifications", async () => {
    const plugin = await spawnFixture("v2-storage-plugin.mjs", { providers: local.providers });
    await plugin.start();
    const reverse: string[] = [];
    const invokes: string[] = [];
    plugin.on("reverseCall", (event) =>
      reverse.push(`${event.method}:${event.error ? event.error.code : "ok"}`),
    );
    plugin.on("invoke", (event) => invokes.push(`${event.tool}:${event.outcome}`));
    await plugin.invoke("remember", { key: "k", value: 1 });
    const progress: ProgressEvent[] = [];
    const result = await plugin.invoke(
      "progress",
      {},
      { invokeId: "p-1", onProgress: (p) => progress.push(p) },
    );
    expect(result.success).toBe(true);
    expect(progress).toEqual([
      { invokeId: "p-1", type: "progress", data: { step: 1 } },
      { invokeId: "p-1", type: "progress", data: { step: 2 } },
    ]);
    await expect(plugin.invoke("no_such_tool")).rejects.toMatchObject({
      code: JsonRpcErrorCode.METHOD_NOT_FOUND,
    });
    expect(reverse).toEqual(["storage/set:ok", "storage/get:ok"]);
    expect(invokes).toEqual(["remember:success", "progress:success", "no_such_tool:error"]);
  });

  it("iterates stderr lines as a stream", async () => {
    const plugin = await spawnFixture("v2-storage-plugin.mjs");
    await plugin.start();
    const lines: string[] = [];
    const reading = (async () => {
      for await (const line of plugin.stderr) lines.push(line);
    })();
    await plugin.invoke("slow", { ms: 1 });
    await plugin.invoke("echo_context");
    await plugin.stop();
    await reading;
    expect(lines).toEqual(["invoking slow", "invoking echo_context"]);
  });

  it("writes raw lines and reports answers without an id as orphan responses", async () => {
    const plugin = await spawnFixture("v2-storage-plugin.mjs");
    await plugin.start();
    const orphans: Record<string, unknown>[] = [];
    plugin.on("orphanResponse", (frame) => orphans.push(frame));
    await plugin.writeRaw("this is not json\n");
    // Still serving, and the host did not answer the plugin's error frame.
    expect((await plugin.invoke("slow", { ms: 1 })).success).toBe(true);
    expect(orphans).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }]);
    expect(plugin.stderr.recent.some((line) => line.startsWith("unexpected frame"))).toBe(false);
  });

  it("stops on EOF alone and on SIGTERM alone", async () => {
    const eof = await spawnFixture("v2-storage-plugin.mjs");
    await eof.describe();
    expect(await eof.stop({ via: "eof" })).toMatchObject({ code: 0, signal: null, forced: false });
    const term = await spawnFixture("v2-storage-plugin.mjs");
    await term.describe(); // its SIGTERM handler is installed once it answers
    expect(await term.stop({ via: "sigterm" })).toMatchObject({ code: 0, forced: false });
  });
});

describe("a v1 plugin", () => {
  it("falls back to 1.1 on -32601 and still describes and invokes", async () => {
    const plugin = await spawnFixture("v1-plugin.mjs", { providers: local.providers });
    const { negotiated } = await plugin.start();
    expect(negotiated).toEqual({ protocolVersion: "1.1", initializeSupported: false });
    expect(await plugin.invoke("greet", { name: "Ada" })).toEqual({
      success: true,
      data: { greeting: "hello Ada" },
    });
    // No health method: treated as healthy.
    expect(await plugin.health()).toEqual({ status: "ready", implemented: false });
  });

  it("gets NOT_NEGOTIATED for reverse calls", async () => {
    const plugin = await spawnFixture("v1-plugin.mjs", { providers: local.providers });
    await plugin.start();
    const sampling = await plugin.invoke<{ error: { code: number } }>("try", {
      method: "sampling/createMessage",
    });
    expect(sampling.data!.error.code).toBe(SamplingErrorCode.NOT_NEGOTIATED);
    // storage has no NOT_NEGOTIATED code of its own: its NOT_GRANTED.
    const storage = await plugin.invoke<{ error: { code: number } }>("try", {
      method: "storage/get",
      params: { scope: "tool", key: "k" },
    });
    expect(storage.data!.error.code).toBe(StorageErrorCode.NOT_GRANTED);
  });
});

describe("file transport", () => {
  it("reads replies from the file and deletes it", async () => {
    const ftDir = tempDir("executa-ft-");
    try {
      const plugin = await spawnFixture("file-transport-plugin.mjs", { env: { FT_DIR: ftDir.path } });
      const manifest = await plugin.describe(); // pretty-printed, multi-line JSON in the file
      expect(manifest.name).toBe("file-transport");
      const big = await plugin.invoke<{ text: string }>("big", { bytes: 3 * 1024 * 1024 });
      expect(big.data!.text.length).toBe(3 * 1024 * 1024);
      await expect(plugin.invoke("error")).rejects.toMatchObject({
        code: -32602,
        message: "bad thing, via file",
      });
      expect(readdirSync(ftDir.path)).toEqual([]);
      // Another id's response is refused, not relabelled, and stays where it is.
      const relabelled = await plugin.invoke("other_id").catch((e: unknown) => e);
      expect(isHostError(relabelled, "PROTOCOL_VIOLATION")).toBe(true);
      expect((relabelled as Error).message).toMatch(/does not hold the response for the pointer's id/);
      expect(readdirSync(ftDir.path)).toHaveLength(1);
      const missing = await plugin.invoke("missing").catch((e: unknown) => e);
      expect(isHostError(missing, "PROTOCOL_VIOLATION")).toBe(true);
      expect((missing as RpcError).message).toMatch(/file transport refused .*does-not-exist.*ENOENT/);
    } finally {
      ftDir.remove();
    }
  });
});

describe("stopping", () => {
  it("sends SIGKILL when the plugin ignores SIGTERM past the grace", async () => {
    const plugin = await spawnFixture("ignore-sigterm-plugin.mjs");
    await plugin.describe();
    const stopped = await plugin.stop({ graceMs: 300 });
    expect(stopped).toMatchObject({ code: null, signal: "SIGKILL", forced: true });
    expect(stopped.elapsedMs).toBeGreaterThanOrEqual(290);
    expect(plugin.stderr.recent).toEqual(expect.arrayContaining(["SIGTERM ignored", "EOF ignored"]));
  });

  it("waits the spec's 5 s by default", async () => {
    const plugin = await spawnFixture("ignore-sigterm-plugin.mjs");
    await plugin.describe();
    const stopped = await plugin.stop();
    expect(stopped.forced).toBe(true);
    expect(stopped.elapsedMs).toBeGreaterThanOrEqual(4900);
    expect(stopped.elapsedMs).toBeLessThan(8000);
  }, 15_000);
});

describe("a noisy plugin", () => {
  it("tolerates non-frame stdout lines as debug output and never answers them", async () => {
    const plugin = await spawnFixture("junk-stdout-plugin.mjs");
    expect((await plugin.describe()).name).toBe("junk");
    const result = await plugin.invoke<{ unexpected_frames: number }>("noisy");
    expect(result).toEqual({ success: true, data: { unexpected_frames: 0 } });
    expect(plugin.stdoutDebug.recent).toEqual([
      "starting up... not JSON",
      '{"level":"info","msg":"a JSON log line, not a frame"}',
      "[1, 2, 3]",
      "debug: describing",
      "console.log from a tool",
    ]);
  });

  it("reports out-of-spec answers as protocol violations", async () => {
    const plugin = await spawnFixture("junk-stdout-plugin.mjs");
    const health = await plugin.health().catch((e: unknown) => e);
    expect(isHostError(health, "PROTOCOL_VIOLATION")).toBe(true);
    expect((health as HostError).details.value).toEqual({ status: "healthy" });
    await expect(plugin.invoke("bad_shape")).rejects.toMatchObject({ hostCode: "PROTOCOL_VIOLATION" });
  });
});

describe("a plugin that dies", () => {
  it("rejects every pending call with the exit status and its last stderr", async () => {
    const plugin = await spawnFixture("crash-plugin.mjs");
    await plugin.describe();
    const waiting = plugin.invoke("wait").catch((e: unknown) => e);
    const crash = await plugin.invoke("crash").catch((e: unknown) => e);
    expect(isHostError(crash, "PLUGIN_EXITED")).toBe(true);
    const error = crash as HostError;
    expect(error.details.exit).toEqual({ code: 3, signal: null });
    expect(error.message).toMatch(/plugin "crashy" exited with code 3/);
    expect(error.message).toContain("boom: something went terribly wrong");
    expect(isHostError(await waiting, "PLUGIN_EXITED")).toBe(true);
    await expect(plugin.invoke("crash")).rejects.toMatchObject({ hostCode: "PLUGIN_EXITED" });
    expect(plugin.activeInvokes).toBe(0);
    expect(await plugin.stop()).toMatchObject({ code: 3, forced: false, elapsedMs: 0 });
  });

  it("rejects spawnPlugin for a command that does not exist", async () => {
    const failed = spawnPlugin({ command: "/definitely/not/here" });
    await expect(failed).rejects.toThrow(/cannot start plugin/);
    await expect(failed).rejects.toMatchObject({ hostCode: "SPAWN_FAILED" });
  });
});
