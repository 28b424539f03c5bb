// The image family (`llm.image`, `llm.image.edit`): deterministic PNGs at loopback URLs from the local host.
import { ImageErrorCode } from "@executa/core";
import { describe, expect, it } from "vitest";
import { failed, MODES, ok, useProbe } from "./harness.js";

const start = useProbe();

const generate = (input: Record<string, unknown>) => ({ op: "image.generate", input });

async function png(url: string): Promise<Buffer> {
  const response = await fetch(url);
  expect(response.headers.get("content-type")).toBe("image/png");
  return Buffer.from(await response.arrayBuffer());
}

describe.each(MODES)("image (%s)", (mode) => {
  it("generates real PNGs, the same bytes for the same prompt, and edits an image", async () => {
    const probe = await start(mode);
    const [mars, again, venus, edited] = await probe.run(
      generate({ prompt: "Mars at night", size: "16x8", n: 2 }),
      generate({ prompt: "Mars at night", size: "16x8" }),
      generate({ prompt: "Venus", size: "16x8" }),
      { op: "image.editUploaded", input: { prompt: "make it red" } },
    );
    const images = ok(mars).images;
    expect(images).toHaveLength(2);
    expect(images[0]).toMatchObject({ mimeType: "image/png", width: 16, height: 8 });
    const first = await png(images[0].url);
    expect(first.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect((await png(ok(again).images[0].url)).equals(first)).toBe(true);
    expect((await png(ok(venus).images[0].url)).equals(first)).toBe(false);
    expect(ok(edited).images[0]).toMatchObject({ mimeType: "image/png", width: 4 });
  });

  it("caps images per request and per invoke with MAX_IMAGES (-32106), the session with QUOTA_EXCEEDED (-32102)", async () => {
    const probe = await start(mode, {
      local: { imageLimits: { maxImagesPerRequest: 2, maxImagesPerInvoke: 3, imagesQuota: 4 } },
    });
    const [perRequest, two, perInvoke] = await probe.run(
      generate({ prompt: "a", n: 3, size: "4x4" }),
      generate({ prompt: "a", n: 2, size: "4x4" }),
      generate({ prompt: "a", n: 2, size: "4x4" }),
    );
    expect(failed(perRequest, ImageErrorCode.MAX_IMAGES, "ImageError").data).toMatchObject({ max_images: 2 });
    ok(two);
    expect(failed(perInvoke, ImageErrorCode.MAX_IMAGES).data).toMatchObject({
      images_used: 2,
      max_images: 3,
    });
    const [next, quota] = await probe.run(
      generate({ prompt: "b", n: 2, size: "4x4" }),
      generate({ prompt: "b", n: 1, size: "4x4" }),
    );
    ok(next);
    failed(quota, ImageErrorCode.QUOTA_EXCEEDED, "ImageError");
  });

  it("refuses bad requests (-32104) and unreachable references (-32314)", async () => {
    const probe = await start(mode);
    const [badSize, badRef, unreachable] = await probe.run(
      generate({ prompt: "a", size: "huge" }),
      generate({ prompt: "a", referenceImageUrls: ["ftp://example.com/a.png"] }),
      { op: "image.edit", input: { imageUrl: "http://127.0.0.1:1/missing.png", prompt: "x" } },
    );
    failed(badSize, ImageErrorCode.INVALID_REQUEST, "ImageError");
    failed(badRef, ImageErrorCode.INVALID_REQUEST);
    failed(unreachable, ImageErrorCode.REFERENCE_FETCH_FAILED, "ImageError");
  });

  it("answers from the tooling's fixture lines (promptIncludes, then the default line)", async () => {
    const image = (url: string) => ({ images: [{ url, mimeType: "image/png", width: 1024, height: 1024 }] });
    const probe = await start(mode, {
      fixtures: [
        {
          ns: "image",
          method: "generate",
          match: { promptIncludes: "Mars" },
          result: image("https://mock.cdn/mars.png"),
        },
        { ns: "image", method: "generate", result: image("https://mock.cdn/default.png") },
      ],
    });
    const [mars, other] = await probe.run(generate({ prompt: "Mars poster" }), generate({ prompt: "Venus" }));
    expect(ok(mars).images[0].url).toBe("https://mock.cdn/mars.png");
    expect(ok(other).images[0].url).toBe("https://mock.cdn/default.png");
  });

  it("answers NOT_GRANTED (-32101) for an ungranted edit and NOT_NEGOTIATED (-32107) on a 1.1 host", async () => {
    const granted = await start(mode, { grantedCapabilities: ["llm.image"] });
    const [generated, edit] = await granted.run(generate({ prompt: "a", size: "4x4" }), {
      op: "image.editUploaded",
      input: { prompt: "b" },
    });
    ok(generated);
    failed(edit, ImageErrorCode.NOT_GRANTED, "ImageError");
    const old = await start(mode, { protocolVersion: "1.1" });
    failed((await old.run(generate({ prompt: "a" })))[0], ImageErrorCode.NOT_NEGOTIATED, "ImageError");
  });
});
