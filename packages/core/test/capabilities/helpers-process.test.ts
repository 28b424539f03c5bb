// The multi-step helpers over real pipes: storage.update's optimistic retry, files.upload
// and upload.uploadBytes against an HTTP server on 127.0.0.1, the inline 8 MiB check, and
// display blocks.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { RpcError } from "@executa/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeHost, type ReverseCall, startHost } from "./helpers/fake-host.js";

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let server: Server;
let base: string;
const received: Received[] = [];
let status = 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      res.writeHead(status, status === 200 ? { ETag: '"etag-from-store"' } : {});
      res.end(status === 200 ? "" : "signature mismatch");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

let host: FakeHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
  received.length = 0;
  status = 200;
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

describe("files.upload", () => {
  it("begins, PUTs the bytes with the host's headers, and completes with the store's ETag", async () => {
    host = await startHost();
    host.responder = (call: ReverseCall) =>
      call.method === "files/upload_begin"
        ? {
            upload_id: "up-1",
            put_url: `${base}/bucket/notes/a.txt?X-Signature=abc`,
            headers: { "Content-Type": "text/plain; charset=utf-8", "x-amz-meta-owner": "u1" },
            expires_at: "2030-01-01T00:00:00Z",
          }
        : { path: "notes/a.txt", size_bytes: 11, etag: '"etag-from-store"' };
    const outcome = await host.outcome(
      "files_upload",
      {
        path: "notes/a.txt",
        text: "hello wörld",
        options: { contentType: "text/plain; charset=utf-8", scope: "user" },
      },
      { invoke_id: "f1" },
    );
    const size = Buffer.byteLength("hello wörld");
    expect(outcome).toEqual({
      ok: true,
      result: {
        path: "notes/a.txt",
        sizeBytes: size,
        etag: '"etag-from-store"',
        info: { path: "notes/a.txt", size_bytes: 11, etag: '"etag-from-store"' },
      },
    });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: "PUT", url: "/bucket/notes/a.txt?X-Signature=abc" });
    expect(received[0]!.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(received[0]!.headers["x-amz-meta-owner"]).toBe("u1");
    expect(received[0]!.body.toString("utf8")).toBe("hello wörld");
    const [begin, complete] = host.calls;
    expect(begin!.frame.params).toMatchObject({
      path: "notes/a.txt",
      scope: "user",
      size_bytes: size,
      content_type: "text/plain; charset=utf-8",
      context: { invoke_id: "f1" },
    });
    expect(complete!.method).toBe("files/upload_complete");
    expect(complete!.params).toMatchObject({
      path: "notes/a.txt",
      scope: "user",
      etag: '"etag-from-store"',
      size_bytes: size,
      context: { invoke_id: "f1" },
    });
  });

  it("a rejected PUT fails with UPSTREAM and never completes", async () => {
    host = await startHost();
    status = 403;
    host.responder = () => ({ put_url: `${base}/put`, headers: {} });
    const outcome = await host.outcome("files_upload", { path: "a.txt", text: "x" }, { invoke_id: "f2" });
    expect(outcome.error).toMatchObject({
      name: "StorageError",
      code: -32029,
      data: { kind: "status", status: 403 },
    });
    expect(host.calls.map((c) => c.method)).toEqual(["files/upload_begin"]);
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

  it("uploadBytes negotiates, PUTs and confirms larger payloads", async () => {
    host = await startHost();
    host.responder = (call: ReverseCall) =>
      call.params.mode === "negotiate"
        ? { put_url: `${base}/r2/obj`, headers: { "x-amz-acl": "private" }, r2_key: "exec-uploads/obj" }
        : { download_url: "https://cdn.test/obj", r2_key: "exec-uploads/obj", size_bytes: 2048 };
    const outcome = await host.outcome(
      "upload_bytes",
      { mode: "auto", size: 2048, options: { inlineMaxBytes: 1024, purpose: "image_input" } },
      { invoke_id: "i3" },
    );
    expect(outcome).toEqual({
      ok: true,
      result: { download_url: "https://cdn.test/obj", r2_key: "exec-uploads/obj", size_bytes: 2048 },
    });
    expect(host.calls.map((c) => c.params.mode)).toEqual(["negotiate", "confirm"]);
    expect(host.calls[0]!.params).toMatchObject({
      filename: "a.bin",
      mime_type: "application/octet-stream",
      size_bytes: 2048,
      purpose: "image_input",
      context: { invoke_id: "i3" },
    });
    expect(host.calls[1]!.params).toMatchObject({ r2_key: "exec-uploads/obj", context: { invoke_id: "i3" } });
    expect(received).toHaveLength(1);
    expect(received[0]!.headers["x-amz-acl"]).toBe("private");
    expect(received[0]!.body.equals(Buffer.alloc(2048, 0x61))).toBe(true);
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
