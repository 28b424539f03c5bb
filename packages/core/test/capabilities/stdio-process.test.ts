// The capability fixture as a real child on stdio (core's built output), for what only a
// process shows: nothing but frames reaches its stdout while it calls the host, and a
// shutdown aborts a pending reverse call through the invoke's signal before it exits 0.
import { RpcError } from "@executa/core";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeHost } from "./helpers/fake-host.js";
import { spawnHost } from "./helpers/spawned-host.js";

let host: FakeHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe("the fixture as a child process", () => {
  it("writes nothing but frames on stdout while it calls the host", async () => {
    host = await spawnHost();
    host.responder = (call) => {
      if (call.method === "storage/get") return { value: 1, etag: "e1", exists: true };
      throw new RpcError(-32022, "no such key");
    };
    const read = await host.outcome("host_call", { path: "storage.get", args: ["k"] }, { invoke_id: "a" });
    expect(read).toEqual({ ok: true, result: { value: 1, etag: "e1", exists: true } });
    const failed = await host.outcome("host_call", { path: "files.list", args: [] }, { invoke_id: "b" });
    expect(failed.error).toMatchObject({ name: "StorageError", code: -32022 });
    expect(host.stdoutLines.length).toBeGreaterThanOrEqual(5); // initialize, 2 × (call + answer)
    for (const line of host.stdoutLines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("the invoke's signal aborts a pending call when the plugin shuts down", async () => {
    host = await spawnHost({ shutdownGraceMs: 200 });
    const invoke = host.invoke(
      "host_call",
      { path: "embeddings.create", args: ["wait forever"] },
      { invoke_id: "sd" },
    );
    const settled = invoke.then(
      () => "resolved",
      (error: { code?: number }) => error.code,
    );
    await host.call(1);
    await host.request("shutdown");
    expect(await settled).toBe(-32099);
    await host.until(() => host!.stderr().includes("FIXTURE-OUTCOME"), 5_000, "the tool's outcome");
    const line = host
      .stderr()
      .split("\n")
      .find((l) => l.startsWith("FIXTURE-OUTCOME"))!;
    expect(JSON.parse(line.slice("FIXTURE-OUTCOME ".length))).toMatchObject({
      invokeId: "sd",
      ok: false,
      error: { name: "RpcError", code: -32099 },
    });
    expect(await host.exited).toBe(0);
  });
});
