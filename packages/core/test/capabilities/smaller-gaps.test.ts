// Upload purposes, embeddings input forms, ctx.deadline helpers and the reference SDKs'
// constant names, in process on a fake ReverseChannel.
import * as core from "@executa/core";
import { createLogger, UPLOAD_PURPOSES, UploadError } from "@executa/core";
import { createInvokeContext, reverseRoute } from "@executa/core/internal";
import * as reference from "@executa/core/reference";
import { describe, expect, it } from "vitest";
import { invokeDeadline } from "../../src/context/deadline.js";
import { fakeChannel, fakeHost } from "./helpers/fake-channel.js";

const file = { filename: "a.png", mimeType: "image/png", content: "png" };
const uploaded = { download_url: "https://cdn.test/a.png", r2_key: "k" };

describe("upload purpose whitelist", () => {
  it.each(UPLOAD_PURPOSES)("sends purpose %s", async (purpose) => {
    const { host, sent } = fakeHost({ respond: () => uploaded });
    await host.upload.inline({ ...file, purpose });
    expect(sent[0]!.params.purpose).toBe(purpose);
  });

  it.each([
    ["inline", (host: core.HostClients) => host.upload.inline({ ...file, purpose: "avatar" as never })],
    [
      "negotiate",
      (host: core.HostClients) => host.upload.negotiate({ ...file, sizeBytes: 3, purpose: "x" as never }),
    ],
    [
      "uploadBytes",
      (host: core.HostClients) => host.upload.uploadBytes({ ...file, purpose: "image-edit" as never }),
    ],
  ])("%s with another purpose fails with PURPOSE_REJECTED (-32206), sending nothing", async (_mode, call) => {
    const { host, sent } = fakeHost({ respond: () => uploaded });
    const error = (await call(host).catch((e: unknown) => e)) as UploadError;
    expect(error).toBeInstanceOf(UploadError);
    expect(error.code).toBe(-32206);
    expect(error.isPurposeRejected()).toBe(true);
    expect(error.message).toMatch(
      /not in the protocol whitelist \(image_input, image_reference, user_artifact\)/,
    );
    expect(sent).toHaveLength(0);
  });

  it("no purpose is fine", async () => {
    const { host, sent } = fakeHost({ respond: () => uploaded });
    await host.upload.inline(file);
    expect(sent[0]!.params).not.toHaveProperty("purpose");
  });
});

describe("embeddings input", () => {
  const reply = { object: "list", data: [{ index: 0, embedding: [0.1, 0.2] }] };
  it("takes one string or a list, sent as given", async () => {
    const { host, sent } = fakeHost({ respond: () => reply });
    const one = await host.embeddings.create("hello");
    await host.embeddings.create(["a", "b"], { model: "anna-managed-v1" });
    expect(one.data[0]!.embedding).toEqual([0.1, 0.2]);
    expect(sent.map((s) => [s.params.input, s.params.model])).toEqual([
      ["hello", undefined],
      [["a", "b"], "anna-managed-v1"],
    ]);
  });

  it.each([[""], ["  "], [[]], [["a", ""]]])("rejects %j locally with -32504", async (input) => {
    const { host, sent } = fakeHost();
    const error = (await host.embeddings
      .create(input as string)
      .catch((e: unknown) => e)) as core.EmbeddingsError;
    expect(error.code).toBe(-32504);
    expect(sent).toHaveLength(0);
  });
});

describe("ctx.deadline", () => {
  function context(wire: Record<string, unknown>, deadlineMs: number) {
    const { channel } = fakeChannel();
    return createInvokeContext({
      tool: "t",
      invokeId: "i",
      deadlineMs,
      signal: new AbortController().signal,
      wire,
      declaredCredentials: [],
      log: createLogger("t", { level: "error" }),
      channel,
    });
  }

  it("exposes the deadline with remainingMs, remainingS, expired and whether the host sent it", () => {
    const at = Date.now() + 60_000;
    const ctx = context({ deadline_ms: at }, at);
    expect(ctx.deadline.atMs).toBe(at);
    expect(ctx.deadline.fromHost).toBe(true);
    expect(ctx.deadline.expired()).toBe(false);
    expect(ctx.deadline.remainingMs()).toBeGreaterThan(59_000);
    expect(ctx.deadline.remainingS()).toBeCloseTo(ctx.deadline.remainingMs() / 1000, 0);
    expect(ctx.deadline).toBe(ctx.deadline);
    expect(context({}, at).deadline.fromHost).toBe(false);
  });

  it("is expired once the time has passed and never reports negative time", () => {
    let now = 1_000;
    const deadline = invokeDeadline(1_500, true, () => now);
    expect(deadline.remainingMs()).toBe(500);
    expect(deadline.expired()).toBe(false);
    now = 1_500;
    expect(deadline.expired()).toBe(true);
    now = 9_000;
    expect(deadline.remainingMs()).toBe(0);
    expect(deadline.remainingS()).toBe(0);
    const past = context({ deadline_ms: Date.now() - 10 }, Date.now() - 10);
    expect(past.deadline.expired()).toBe(true);
    expect(past.remainingMs()).toBe(0);
  });
});

describe("the reference SDKs' constant names (@executa/core/reference)", () => {
  it("alias our codes where the names differ", () => {
    expect(reference.IMAGE_ERR_MAX_IMAGES_EXCEEDED).toBe(core.ImageErrorCode.MAX_IMAGES);
    expect(reference.IMAGE_ERR_NO_MODEL_AVAILABLE).toBe(-32109);
    expect(reference.UPLOAD_ERR_MAX_FILES_EXCEEDED).toBe(core.UploadErrorCode.MAX_FILES);
    expect(reference.UPLOAD_ERR_PURPOSE_REJECTED).toBe(-32206);
    expect(reference.EMBED_ERR_MAX_TOKENS_EXCEEDED).toBe(core.EmbeddingsErrorCode.MAX_TOKENS);
    expect(reference.SAMPLING_ERR_UNSUPPORTED_RESPONSE_FORMAT).toBe(-32010);
    expect(reference.STORAGE_ERR_TIMEOUT).toBe(-32030);
    expect(reference.AGENT_ERR_TOOL_NOT_GRANTED).toBe(-32048);
  });

  it("every METHOD_* name is a method of the capability-family table", () => {
    const methods = Object.entries(reference).filter(([name]) => name.startsWith("METHOD_"));
    expect(methods.length).toBe(22);
    for (const [name, method] of methods) expect(reverseRoute(method as string)?.spec, name).toBeDefined();
  });

  it("stay out of the main entry", () => {
    expect(Object.keys(core).filter((name) => /^(METHOD_|[A-Z]+_ERR_)/.test(name))).toEqual([]);
  });
});
