import { existsSync } from "node:fs";
import { JsonRpcErrorCode, SamplingErrorCode, ServerErrorCode, StorageErrorCode } from "@executa/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  expectInvalidParams,
  expectRpcError,
  expectSuccess,
  expectToolError,
  type PluginTestClient,
  runInProcess,
} from "../../src/index.js";
import { notesDefinition } from "../fixtures/notes-definition.js";

const open: PluginTestClient[] = [];
async function start(...args: Parameters<typeof runInProcess>): Promise<PluginTestClient> {
  const client = await runInProcess(...args);
  open.push(client);
  return client;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close({ graceMs: 500 })));
});

describe("runInProcess with a core definition", () => {
  it("handshakes, describes and invokes over the protocol", async () => {
    const plugin = await start(notesDefinition());
    expect(plugin.negotiated?.protocolVersion).toBe("2.0");
    expect(plugin.manifest?.name).toBe("notes");
    const manifest = await plugin.describe();
    expect(manifest.tools.map((tool) => tool.name)).toContain("greet");
    const data = expectSuccess(await plugin.invoke<{ greeting: string }>("greet", { name: "Ada" }));
    expect(data.greeting).toBe("Hello, Ada!");
    expect((await plugin.health()).status).toBe("ready");
  });

  it("leaves the handshake to the test when asked", async () => {
    const plugin = await start(notesDefinition(), { handshake: false });
    expect(plugin.negotiated).toBeUndefined();
    expect(plugin.manifest).toBeUndefined();
    expect((await plugin.initialize()).protocolVersion).toBe("2.0");
    expect((await plugin.describe()).name).toBe("notes");
  });

  it("sends the client's credentials with every invoke, per-invoke ones winning", async () => {
    const plugin = await start(notesDefinition(), { credentials: { NOTES_TOKEN: "from-client" } });
    const first = expectSuccess(await plugin.invoke<{ token: string }>("greet", { name: "a" }));
    expect(first.token).toBe("from-client");
    const second = expectSuccess(
      await plugin.invoke<{ token: string }>("greet", { name: "b" }, { credentials: { NOTES_TOKEN: "own" } }),
    );
    expect(second.token).toBe("own");
  });

  it("answers storage reverse calls from the local providers in a temp dir removed on close", async () => {
    const plugin = await start(notesDefinition());
    expect(plugin.dataDir && existsSync(plugin.dataDir)).toBe(true);
    expectSuccess(await plugin.invoke("save", { key: "todo", value: { text: "milk" } }));
    const loaded = expectSuccess(
      await plugin.invoke<{ exists: boolean; value: unknown }>("load", { key: "todo" }),
    );
    expect(loaded).toEqual({ exists: true, value: { text: "milk" } });
    expect(plugin.reverseCalls.map((call) => call.method)).toEqual(["storage/set", "storage/get"]);
    const dir = plugin.dataDir!;
    await plugin.close();
    expect(existsSync(dir)).toBe(false);
  });

  it("answers sampling from a script, and echoes by default", async () => {
    const scripted = await start(notesDefinition(), {
      sampling: [
        { match: "capital of France", reply: "Paris" },
        { match: "/quota/i", error: { code: SamplingErrorCode.QUOTA_EXCEEDED, message: "no quota" } },
      ],
    });
    const answer = expectSuccess(
      await scripted.invoke<{ answer: string }>("ask", { question: "What is the capital of France?" }),
    );
    expect(answer.answer).toBe("Paris");
    // The script's error fails the reverse call; uncaught, it becomes the invoke's error frame.
    await expectRpcError(
      scripted.invoke("ask", { question: "Quota?" }),
      SamplingErrorCode.QUOTA_EXCEEDED,
      "no quota",
    );
    expect(scripted.reverseCalls.at(-1)?.error?.message).toBe("no quota");

    const echo = await start(notesDefinition());
    const echoed = expectSuccess(await echo.invoke<{ answer: string }>("ask", { question: "ping" }));
    expect(echoed.answer).toContain("ping");
  });

  it("refuses reverse calls the host does not grant", async () => {
    const plugin = await start(notesDefinition(), { grantedCapabilities: ["llm.sample"] });
    const error = await expectRpcError(
      plugin.invoke("save", { key: "k", value: 1 }),
      StorageErrorCode.NOT_GRANTED,
    );
    expect(error.message).toMatch(/does not grant "aps.kv"/);
  });

  it("turns tool errors, protocol errors and timeouts into the expected shapes", async () => {
    const plugin = await start(notesDefinition(), { onInvokeTimeout: "keep" });
    expect(expectToolError(await plugin.invoke("fail"), /always fails/)).toBe("this tool always fails");
    await expectRpcError(plugin.invoke("nope"), JsonRpcErrorCode.METHOD_NOT_FOUND, "Unknown tool");
    await expectInvalidParams(plugin.invoke("greet", { name: 42 }), ["name"]);
    await expectRpcError(plugin.invoke("slow", { ms: 5000 }), ServerErrorCode.TOOL_TIMEOUT);
  });

  it("exposes the plugin's log lines", async () => {
    const plugin = await start(notesDefinition());
    expectSuccess(await plugin.invoke("greet", { name: "Grace" }));
    expect(plugin.stderr.recent.some((line) => line.includes("greeting Grace"))).toBe(true);
  });

  it("stops the server on close, and close is idempotent", async () => {
    const plugin = await runInProcess(notesDefinition());
    const [first, second] = await Promise.all([plugin.close(), plugin.close()]);
    expect(first).toBe(second);
    expect(first.code).toBe(0);
    expect(first.forced).toBe(false);
    expect(plugin.process.running).toBe(false);
    await expect(plugin.invoke("greet", { name: "late" })).rejects.toThrow(/exited|closed/);
  });

  it("rejects what is not a plugin with a clear error", async () => {
    await expect(runInProcess({ nope: true } as never)).rejects.toThrow(
      /expected a @Plugin class or a PluginDefinition/,
    );
  });
});

describe("the in-process child's stop paths", () => {
  it("lets an in-flight invoke finish when closed (SIGTERM + EOF, within the server's grace)", async () => {
    const plugin = await runInProcess(notesDefinition());
    const pending = plugin.invoke<{ slept: boolean }>("slow", { ms: 200 });
    // Requests are read in order and health is never queued: once it answers, the invoke runs.
    await plugin.health();
    const stopped = await plugin.close();
    expect(stopped).toMatchObject({ code: 0, signal: null, forced: false });
    expect(expectSuccess(await pending).slept).toBe(true);
  });

  it("reports SIGKILL as a kill and fails what is pending", async () => {
    const plugin = await start(notesDefinition());
    const pending = plugin.invoke("slow", { ms: 2000 });
    await plugin.health();
    plugin.process.kill();
    expect(await plugin.process.exited).toEqual({ code: null, signal: "SIGKILL" });
    await expect(pending).rejects.toThrow(/killed by SIGKILL/);
  });
});
