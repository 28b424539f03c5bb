import { crc32, inflateSync } from "node:zlib";
import { ImageErrorCode } from "@executa/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalProviders, type LocalProviders } from "../../src/local/create-local-providers.js";
import { expectRpcError, tempDir } from "../helpers/calls.js";
import { localRouter } from "./local-router.js";

/** Checks the PNG structure (signature, chunk CRCs) and returns its size and pixel bytes. */
function decodePng(bytes: Buffer): { width: number; height: number; raw: Buffer } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let offset = 8;
  const chunks = new Map<string, Buffer>();
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const typeAndData = bytes.subarray(offset + 4, offset + 8 + length);
    expect(bytes.readUInt32BE(offset + 8 + length)).toBe(crc32(typeAndData));
    chunks.set(typeAndData.subarray(0, 4).toString("latin1"), typeAndData.subarray(4));
    offset += 12 + length;
  }
  const ihdr = chunks.get("IHDR")!;
  expect(chunks.has("IEND")).toBe(true);
  return { width: ihdr.readUInt32BE(0), height: ihdr.readUInt32BE(4), raw: inflateSync(chunks.get("IDAT")!) };
}

describe("ImageProvider through the reverse router", () => {
  let dir: ReturnType<typeof tempDir>;
  let local: LocalProviders;
  let send: ReturnType<typeof localRouter>["send"];

  beforeEach(() => {
    dir = tempDir();
    local = createLocalProviders({
      dataDir: dir.path,
      sampling: { mode: "echo" },
      imageLimits: { maxImagesPerRequest: 3, maxImagesPerInvoke: 4, imagesQuota: 6 },
    });
    send = localRouter(local.providers).send;
  });
  afterEach(async () => {
    await local.close();
    dir.remove();
  });

  const download = async (url: string) => {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    return Buffer.from(await response.arrayBuffer());
  };

  it("generates real PNGs of the requested size at loopback URLs, deterministic per prompt", async () => {
    const first = await send("image/generate", { prompt: "A poster of Mars", size: "64x32", n: 2 });
    expect(first).toMatchObject({
      model: "local-stripes-v1",
      quota_used: { images_today: 2, images_quota: 6 },
    });
    expect(first.images).toHaveLength(2);
    expect(first.images[0]).toMatchObject({ mimeType: "image/png", width: 64, height: 32 });
    expect(first.images[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/images\//);
    const png = await download(first.images[0].url);
    const decoded = decodePng(png);
    expect(decoded).toMatchObject({ width: 64, height: 32 });
    expect(decoded.raw.length).toBe((64 * 3 + 1) * 32);

    const again = await send("image/generate", { prompt: "A poster of Mars", size: "64x32" }, "inv-2");
    expect(await download(again.images[0].url)).toEqual(png);
    const other = await send("image/generate", { prompt: "A poster of Venus", size: "64x32" }, "inv-3");
    expect(await download(other.images[0].url)).not.toEqual(png);
  });

  it("defaults to one 1024x1024 image", async () => {
    const result = await send("image/generate", { prompt: "x" });
    expect(result.images).toEqual([expect.objectContaining({ width: 1024, height: 1024 })]);
    expect(decodePng(await download(result.images[0].url))).toMatchObject({ width: 1024, height: 1024 });
  });

  it("edits a fetched image: the result depends on the source and the prompt", async () => {
    const source = await send("image/generate", { prompt: "base", size: "16x16" });
    const url = source.images[0].url;
    const edit = await send("image/edit", { image_url: url, prompt: "cyberpunk", size: "16x16" });
    const edited = await download(edit.images[0].url);
    expect(edited).not.toEqual(await download(url));
    const again = await send("image/edit", { image_url: url, prompt: "cyberpunk", size: "16x16" });
    expect(await download(again.images[0].url)).toEqual(edited);
  });

  it("answers -32314 when a source image cannot be fetched", async () => {
    const source = await send("image/generate", { prompt: "base", size: "8x8" });
    const missing = source.images[0].url.replace(/\/images\/[^?]+/, "/images/nope.png");
    const error = await expectRpcError(
      () => send("image/edit", { image_url: missing, prompt: "p" }),
      ImageErrorCode.REFERENCE_FETCH_FAILED,
    );
    expect(error.message).toContain("HTTP 403");
    await expectRpcError(
      () => send("image/generate", { prompt: "p", reference_image_urls: ["http://127.0.0.1:1/ref.png"] }),
      ImageErrorCode.REFERENCE_FETCH_FAILED,
    );
  });

  it("rejects bad requests with -32104", async () => {
    for (const params of [
      {},
      { prompt: "" },
      { prompt: "p", size: "big" },
      { prompt: "p", size: "4096x10" },
      { prompt: "p", n: 0 },
      { prompt: "p", reference_image_urls: "x" },
      { prompt: "p", reference_image_urls: ["file:///etc/passwd"] },
    ]) {
      await expectRpcError(() => send("image/generate", params), ImageErrorCode.INVALID_REQUEST);
    }
    await expectRpcError(() => send("image/edit", { prompt: "p" }), ImageErrorCode.INVALID_REQUEST);
  });

  it("enforces images per request and per invoke (-32106) and the session quota (-32102)", async () => {
    const perRequest = await expectRpcError(
      () => send("image/generate", { prompt: "p", n: 4, size: "4x4" }),
      ImageErrorCode.MAX_IMAGES,
    );
    expect(perRequest.data).toEqual({ n: 4, max_images: 3 });
    await send("image/generate", { prompt: "p", n: 3, size: "4x4" }, "a");
    await expectRpcError(
      () => send("image/generate", { prompt: "p", n: 2, size: "4x4" }, "a"),
      ImageErrorCode.MAX_IMAGES,
    );
    await send("image/generate", { prompt: "p", n: 3, size: "4x4" }, "b");
    const quota = await expectRpcError(
      () => send("image/generate", { prompt: "p", size: "4x4" }, "c"),
      ImageErrorCode.QUOTA_EXCEEDED,
    );
    expect(quota.data).toEqual({ images_today: 6, images_quota: 6 });
  });

  it("needs llm.image.edit for edits", async () => {
    const { send: narrow } = localRouter(local.providers, ["llm.image"]);
    await expectRpcError(
      () => narrow("image/edit", { image_url: "http://x/y.png", prompt: "p" }),
      ImageErrorCode.NOT_GRANTED,
    );
  });
});
