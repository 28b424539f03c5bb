// The helpers that PUT to a store, against an HTTP server on 127.0.0.1: files.upload and
// upload.uploadBytes beyond the inline limit (the plugin on the in-memory transport pair).
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
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
