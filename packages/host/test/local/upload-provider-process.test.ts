import { UploadErrorCode } from "@executa/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalProviders, type LocalProviders } from "../../src/local/create-local-providers.js";
import { expectRpcError, manualClock, reverseCall, tempDir } from "../helpers/calls.js";

type Result = Record<string, unknown>;

describe("UploadProvider (host/uploadFile)", () => {
  let dir: ReturnType<typeof tempDir>;
  let clock: ReturnType<typeof manualClock>;
  let local: LocalProviders;
  const run = async (params: Record<string, unknown>, invokeId = "invoke-1") =>
    (await local.providers.upload!.handle(reverseCall("host/uploadFile", params, { invokeId }))) as Result;

  beforeEach(() => {
    dir = tempDir();
    clock = manualClock(Date.now());
    local = createLocalProviders({
      dataDir: dir.path,
      sampling: { mode: "echo" },
      maxInlineUploadBytes: 16,
      maxUploadsPerInvoke: 2,
      now: clock.now,
    });
  });
  afterEach(async () => {
    await local.close();
    dir.remove();
  });

  it("stores an inline upload and returns a download URL", async () => {
    const content = Buffer.from("inline bytes");
    const result = await run({
      mode: "inline",
      filename: "a.txt",
      mime_type: "text/plain",
      content_b64: content.toString("base64"),
    });
    expect(result).toMatchObject({ size_bytes: 12, mime_type: "text/plain" });
    expect(result.r2_key).toMatch(/^exec-uploads\/invoke-1\//);
    const got = await fetch(result.download_url as string);
    expect(got.headers.get("content-type")).toBe("text/plain");
    expect(Buffer.from(await got.arrayBuffer())).toEqual(content);
  });

  it("rejects an inline upload over the limit with -32204", async () => {
    const error = await expectRpcError(
      () =>
        run({
          mode: "inline",
          filename: "big.bin",
          mime_type: "application/octet-stream",
          content_b64: Buffer.alloc(17).toString("base64"),
        }),
      UploadErrorCode.TOO_LARGE,
    );
    expect(error.data).toEqual({ size_bytes: 17, max_bytes: 16 });
    await run({
      mode: "inline",
      filename: "fits.bin",
      mime_type: "application/octet-stream",
      content_b64: Buffer.alloc(16).toString("base64"),
    });
  });

  it("caps the uploads of one invoke with -32211 and leaves other invokes alone", async () => {
    const file = (invokeId: string) =>
      run({ mode: "inline", filename: "f.txt", mime_type: "text/plain", content_b64: "eA==" }, invokeId);
    await file("invoke-1");
    await file("invoke-1");
    const error = await expectRpcError(() => file("invoke-1"), UploadErrorCode.MAX_FILES);
    expect(error.data).toEqual({ files: 2, max_files: 2 });
    await file("invoke-2");
  });

  it("rejects bad inline input", async () => {
    await expectRpcError(
      () => run({ mode: "inline", filename: "a", mime_type: "text/plain", content_b64: "!!!" }),
      UploadErrorCode.INVALID_REQUEST,
    );
    await expectRpcError(
      () => run({ mode: "inline", filename: "a", mime_type: "nonsense", content_b64: "" }),
      UploadErrorCode.MIME_REJECTED,
    );
    await expectRpcError(() => run({ mode: "sideways" }), UploadErrorCode.INVALID_REQUEST);
  });

  it("negotiates a PUT URL and confirms the upload", async () => {
    const negotiated = await run({
      mode: "negotiate",
      filename: "r.pdf",
      mime_type: "application/pdf",
      size_bytes: 5,
    });
    expect(negotiated).toMatchObject({
      headers: { "content-type": "application/pdf" },
      r2_key: expect.any(String),
    });
    await expectRpcError(
      () => run({ mode: "confirm", r2_key: negotiated.r2_key }),
      UploadErrorCode.NOT_FOUND,
    );
    const put = await fetch(negotiated.put_url as string, { method: "PUT", body: "%PDF-" });
    expect(put.status).toBe(200);
    const confirmed = await run({ mode: "confirm", r2_key: negotiated.r2_key });
    expect(confirmed).toMatchObject({ r2_key: negotiated.r2_key, size_bytes: 5 });
    expect(await (await fetch(confirmed.download_url as string)).text()).toBe("%PDF-");
  });

  it("refuses to confirm another invoke's key, a size mismatch and an unknown key", async () => {
    const negotiated = await run({
      mode: "negotiate",
      filename: "x",
      mime_type: "text/plain",
      size_bytes: 4,
    });
    await fetch(negotiated.put_url as string, { method: "PUT", body: "abc" });
    const foreign = await expectRpcError(
      () => run({ mode: "confirm", r2_key: negotiated.r2_key }, "invoke-2"),
      UploadErrorCode.INVALID_REQUEST,
    );
    expect(foreign.message).toContain("does not belong to this invoke");
    await expectRpcError(
      () => run({ mode: "confirm", r2_key: negotiated.r2_key }),
      UploadErrorCode.INVALID_REQUEST,
    );
    await expectRpcError(
      () => run({ mode: "confirm", r2_key: "exec-uploads/nope" }),
      UploadErrorCode.NOT_FOUND,
    );
  });

  it("rejects a negotiated size over the limit and expired PUT URLs", async () => {
    await expectRpcError(
      () => run({ mode: "negotiate", filename: "x", mime_type: "text/plain", size_bytes: 200 * 1024 * 1024 }),
      UploadErrorCode.TOO_LARGE,
    );
    const negotiated = await run({
      mode: "negotiate",
      filename: "x",
      mime_type: "text/plain",
      size_bytes: 1,
    });
    clock.advance(60 * 60 * 1000);
    expect((await fetch(negotiated.put_url as string, { method: "PUT", body: "x" })).status).toBe(403);
  });
});

describe("UploadProvider defaults", () => {
  it("caps inline uploads at the spec's 8 MiB", async () => {
    const dir = tempDir();
    const local = createLocalProviders({ dataDir: dir.path, sampling: { mode: "echo" } });
    try {
      const params = (bytes: number) => ({
        mode: "inline",
        filename: "x.bin",
        mime_type: "application/octet-stream",
        content_b64: Buffer.alloc(bytes).toString("base64"),
      });
      await expectRpcError(
        () => local.providers.upload!.handle(reverseCall("host/uploadFile", params(8 * 1024 * 1024 + 1))),
        UploadErrorCode.TOO_LARGE,
      );
      const fits = (await local.providers.upload!.handle(
        reverseCall("host/uploadFile", params(8 * 1024 * 1024)),
      )) as Result;
      expect(fits.size_bytes).toBe(8 * 1024 * 1024);
    } finally {
      await local.close();
      dir.remove();
    }
  });
});
