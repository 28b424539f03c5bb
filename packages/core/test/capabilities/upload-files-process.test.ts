// upload.* and files.* in process: the inline limit, the uploadBytes choice, and the
// failure paths of the PUT helpers.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { INLINE_UPLOAD_MAX_BYTES, UploadError } from "@executa/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeHost } from "./helpers/fake-channel.js";

const MiB = 1024 * 1024;
const file = { filename: "a.bin", mimeType: "application/octet-stream" };

let silent: Server;
let silentUrl: string;
beforeAll(async () => {
  // Accepts the PUT and never answers.
  silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/put`;
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});

describe("upload.inline", () => {
  it("sends exactly 8 MiB and refuses one byte more, locally", async () => {
    const { host, sent } = fakeHost();
    await host.upload.inline({ ...file, content: new Uint8Array(INLINE_UPLOAD_MAX_BYTES) });
    expect(sent).toHaveLength(1);
    expect(Buffer.from(sent[0]!.params.content_b64 as string, "base64").length).toBe(INLINE_UPLOAD_MAX_BYTES);
    const error = (await host.upload
      .inline({ ...file, content: new Uint8Array(INLINE_UPLOAD_MAX_BYTES + 1) })
      .catch((e: unknown) => e)) as UploadError;
    expect(error).toBeInstanceOf(UploadError);
    expect(error.code).toBe(-32204);
    expect(error.isTooLarge()).toBe(true);
    expect(error.data).toEqual({
      size_bytes: INLINE_UPLOAD_MAX_BYTES + 1,
      limit_bytes: INLINE_UPLOAD_MAX_BYTES,
    });
    expect(sent).toHaveLength(1);
  });

  it("encodes text as UTF-8 and a Uint8Array view by its own bytes", async () => {
    const { host, sent } = fakeHost();
    await host.upload.inline({ ...file, content: "é" });
    const backing = new Uint8Array([9, 1, 2, 3, 9]);
    await host.upload.inline({ ...file, content: backing.subarray(1, 4) });
    expect(sent[0]!.params.content_b64).toBe(Buffer.from("é").toString("base64"));
    expect(sent[1]!.params.content_b64).toBe(Buffer.from([1, 2, 3]).toString("base64"));
  });

  it("validates filename, mimeType and content", async () => {
    const { host, sent } = fakeHost();
    await expect(host.upload.inline({ ...file, filename: "", content: "x" })).rejects.toMatchObject({
      code: -32203,
    });
    await expect(host.upload.inline({ ...file, mimeType: "", content: "x" })).rejects.toThrow(/mimeType/);
    await expect(host.upload.inline({ ...file, content: 5 as never })).rejects.toThrow(/content/);
    expect(sent).toHaveLength(0);
  });
});

describe("upload.uploadBytes", () => {
  it("goes inline up to 1 MiB by default and negotiates above", async () => {
    const { host, sent, state } = fakeHost();
    state.respond = (_method, params) => (params.mode === "negotiate" ? { r2_key: "k" } : { r2_key: "k" });
    await host.upload.uploadBytes({ ...file, content: new Uint8Array(MiB) });
    expect(sent[0]!.params.mode).toBe("inline");
    const error = (await host.upload
      .uploadBytes({ ...file, content: new Uint8Array(MiB + 1) })
      .catch((e: unknown) => e)) as UploadError;
    expect(sent[1]!.params).toMatchObject({ mode: "negotiate", size_bytes: MiB + 1 });
    // The host answered negotiate without put_url: nothing is PUT or confirmed.
    expect(error.code).toBe(UploadError.codes.PRESIGN_FAILED);
    expect(sent).toHaveLength(2);
  });

  it("never inlines more than 8 MiB whatever inlineMaxBytes says", async () => {
    const { host, sent, state } = fakeHost();
    state.respond = () => ({});
    await host.upload
      .uploadBytes({
        ...file,
        content: new Uint8Array(INLINE_UPLOAD_MAX_BYTES + 1),
        inlineMaxBytes: 64 * MiB,
      })
      .catch(() => {});
    expect(sent[0]!.params.mode).toBe("negotiate");
  });

  it("a PUT that runs out of time fails with TIMEOUT and is not confirmed", async () => {
    const { host, sent, state } = fakeHost();
    state.respond = () => ({ put_url: silentUrl, r2_key: "k" });
    const error = (await host.upload
      .uploadBytes({ ...file, content: new Uint8Array(10), inlineMaxBytes: 1, putTimeoutMs: 150 })
      .catch((e: unknown) => e)) as UploadError;
    expect(error.code).toBe(-32208);
    expect(sent.map((s) => s.params.mode)).toEqual(["negotiate"]);
  });
});

describe("files", () => {
  it("downloadUrl reads url or get_url and fails on neither", async () => {
    const { host, state } = fakeHost();
    state.respond = () => ({ url: "https://a" });
    await expect(host.files.downloadUrl("p")).resolves.toEqual({ url: "https://a" });
    state.respond = () => ({ expires_at: "t" });
    await expect(host.files.downloadUrl("p")).rejects.toMatchObject({ name: "StorageError", code: -32029 });
  });

  it("upload refuses a non-HTTP put_url and does not complete", async () => {
    const { host, sent, state } = fakeHost();
    state.respond = () => ({ put_url: "file:///etc/passwd" });
    await expect(host.files.upload("p", "x")).rejects.toMatchObject({
      code: -32029,
      data: { kind: "bad-url" },
    });
    expect(sent.map((s) => s.method)).toEqual(["files/upload_begin"]);
  });

  it("upload fails with TIMEOUT when the store never answers the PUT", async () => {
    const { host, state } = fakeHost();
    state.respond = () => ({ put_url: silentUrl });
    await expect(host.files.upload("p", "x", { putTimeoutMs: 150 })).rejects.toMatchObject({
      name: "StorageError",
      code: -32030,
    });
  });

  it("upload reports a refused connection as UPSTREAM", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { host, state } = fakeHost();
    state.respond = () => ({ put_url: `http://127.0.0.1:${port}/put` });
    await expect(host.files.upload("p", "x")).rejects.toMatchObject({
      code: -32029,
      data: { kind: "network" },
    });
  });
});
