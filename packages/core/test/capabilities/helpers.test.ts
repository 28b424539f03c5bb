// The multi-step helpers on the wire: storage.update's optimistic retry, the inline 8 MiB
// check, uploadBytes inline, and display blocks (the PUTs to a store:
// helpers-http-process.test.ts).
import { RpcError } from "@executa/core";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeHost, type ReverseCall, startHost } from "./helpers/fake-host.js";

let host: FakeHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe("storage.update", () => {
  it("retries on -32023 with if_match set to the etag it read", async () => {
    host = await startHost();
    let version = 0;
    let conflicts = 2;
    host.responder = (call: ReverseCall) => {
      if (call.method === "storage/get") return { value: version, etag: `e${version}`, exists: version > 0 };
      if (conflicts > 0) {
        conflicts -= 1;
        version += 1; // someone else wrote in between
        throw new RpcError(-32023, "etag mismatch");
      }
      version = call.params.value as number;
      return { etag: `e${version}`, generation: version };
    };
    const outcome = await host.outcome("kv_increment", { key: "count", maxAttempts: 5 }, { invoke_id: "u1" });
    expect(outcome).toEqual({ ok: true, result: { value: 3, etag: "e3", attempts: 3 } });
    expect(host.calls.map((c) => [c.method, c.params.if_match, c.params.value])).toEqual([
      ["storage/get", undefined, undefined],
      ["storage/set", undefined, 1],
      ["storage/get", undefined, undefined],
      ["storage/set", "e1", 2],
      ["storage/get", undefined, undefined],
      ["storage/set", "e2", 3],
    ]);
    expect(new Set(host.calls.map((c) => c.params.context?.invoke_id))).toEqual(new Set(["u1"]));
  });

  it("gives up after maxAttempts with PRECONDITION_FAILED", async () => {
    host = await startHost();
    host.responder = (call: ReverseCall) => {
      if (call.method === "storage/get") return { value: 1, etag: "e1", exists: true };
      throw new RpcError(-32023, "etag mismatch", { current: "e9" });
    };
    const outcome = await host.outcome("kv_increment", { key: "count", maxAttempts: 3 }, { invoke_id: "u2" });
    expect(outcome.error).toMatchObject({ name: "StorageError", code: -32023, data: { current: "e9" } });
    expect(outcome.error!.message).toMatch(/after 3 attempt/);
    expect(host.calls.filter((c) => c.method === "storage/set")).toHaveLength(3);
  });
});

describe("host upload", () => {
  it("inline refuses more than 8 MiB locally with -32204 and writes nothing", async () => {
    host = await startHost();
    const outcome = await host.outcome(
      "upload_bytes",
      { mode: "inline", size: 8 * 1024 * 1024 + 1 },
      { invoke_id: "i1" },
    );
    expect(outcome.error).toMatchObject({ name: "UploadError", code: -32204 });
    expect(host.reverseFrames).toEqual([]);
  });

  it("uploadBytes goes inline for small payloads", async () => {
    host = await startHost();
    host.responder = () => ({ download_url: "https://cdn.test/a", r2_key: "k1", size_bytes: 10 });
    const outcome = await host.outcome("upload_bytes", { mode: "auto", size: 10 }, { invoke_id: "i2" });
    expect(outcome.ok).toBe(true);
    expect(host.calls).toHaveLength(1);
    expect(host.calls[0]!.params).toMatchObject({
      mode: "inline",
      content_b64: Buffer.alloc(10, 0x61).toString("base64"),
    });
  });
});

describe("display blocks", () => {
  it("puts _display beside the data", async () => {
    host = await startHost();
    const result = await host.invoke("display", { count: 6 });
    expect(result).toMatchObject({
      success: true,
      data: { count: 6, _display: { blocks: [{ type: "markdown", text: "**This is time number 6.**" }] } },
    });
  });
});
