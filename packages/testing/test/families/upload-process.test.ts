// The upload family (`host.upload`): inline and negotiated uploads against the local host.
import { UploadErrorCode } from "@executa/core";
import { describe, expect, it } from "vitest";
import { failed, MODES, ok, useProbe } from "./harness.js";

const start = useProbe();

const file = { filename: "note.txt", mimeType: "text/plain", purpose: "user_artifact" };

describe.each(MODES)("upload (%s)", (mode) => {
  it("uploads inline and by negotiate → PUT → confirm, answering download links", async () => {
    const probe = await start(mode);
    const [inline, negotiated] = await probe.run(
      { op: "upload.uploadBytes", input: { ...file, text: "small" } },
      { op: "upload.uploadBytes", input: { ...file, text: "y".repeat(64), inlineMaxBytes: 16 } },
    );
    expect(ok(inline)).toMatchObject({ result: { r2_key: expect.any(String) }, downloaded: "small" });
    expect(ok(negotiated).downloaded).toBe("y".repeat(64));
    expect(ok(negotiated).result.r2_key).not.toBe(ok(inline).result.r2_key);
  });

  it("refuses oversized uploads with TOO_LARGE (-32204), inline and negotiated", async () => {
    const probe = await start(mode, { local: { maxUploadBytes: 32, maxInlineUploadBytes: 8 } });
    const [inline, negotiated] = await probe.run(
      { op: "upload.inline", input: { ...file, text: "z".repeat(20) } },
      { op: "upload.negotiate", input: { ...file, sizeBytes: 100 } },
    );
    failed(inline, UploadErrorCode.TOO_LARGE, "UploadError");
    failed(negotiated, UploadErrorCode.TOO_LARGE, "UploadError");
  });

  it("refuses a malformed MIME type (-32205) and a purpose off the whitelist (-32206)", async () => {
    const probe = await start(mode);
    const [mime, purpose] = await probe.run(
      { op: "upload.inline", input: { ...file, mimeType: "not a mime", text: "x" } },
      { op: "upload.inline", input: { ...file, purpose: "avatar", text: "x" } },
    );
    failed(mime, UploadErrorCode.MIME_REJECTED, "UploadError");
    failed(purpose, UploadErrorCode.PURPOSE_REJECTED, "UploadError");
  });

  it("caps the uploads of one invoke with MAX_FILES (-32211)", async () => {
    const probe = await start(mode, { local: { maxUploadsPerInvoke: 2 } });
    const [first, second, third] = await probe.run(
      { op: "upload.inline", input: { ...file, text: "1" } },
      { op: "upload.inline", input: { ...file, text: "2" } },
      { op: "upload.inline", input: { ...file, text: "3" } },
    );
    ok(first);
    ok(second);
    failed(third, UploadErrorCode.MAX_FILES, "UploadError");
    // The cap is per invoke: the next invoke may upload again.
    const [next] = await probe.run({ op: "upload.inline", input: { ...file, text: "4" } });
    ok(next);
  });

  it("answers NOT_FOUND (-32212) when confirming an unknown key, or a key whose bytes were never PUT", async () => {
    const probe = await start(mode);
    const [unknown, negotiation, early] = await probe.run(
      { op: "upload.confirm", input: { r2Key: "uploads/never-negotiated" } },
      { op: "upload.negotiate", input: { ...file, sizeBytes: 5 } },
      { op: "upload.confirmWithoutPut", input: { ...file, sizeBytes: 5 } },
    );
    failed(unknown, UploadErrorCode.NOT_FOUND, "UploadError");
    expect(ok(negotiation).put_url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect(failed(early, UploadErrorCode.NOT_FOUND, "UploadError").message).toMatch(/nothing was uploaded/);
  });

  it("answers NOT_GRANTED (-32201) when not granted and NOT_NEGOTIATED (-32210) on a 1.1 host", async () => {
    const granted = await start(mode, { grantedCapabilities: ["aps.kv"] });
    failed(
      (await granted.run({ op: "upload.inline", input: { ...file, text: "x" } }))[0],
      UploadErrorCode.NOT_GRANTED,
      "UploadError",
    );
    const old = await start(mode, { protocolVersion: "1.1" });
    failed(
      (await old.run({ op: "upload.inline", input: { ...file, text: "x" } }))[0],
      UploadErrorCode.NOT_NEGOTIATED,
    );
  });
});
