// The shared call path, in process on a fake ReverseChannel: stamping, budgets,
// negotiation, aborts and error mapping.
import {
  AgentError,
  CapabilityError,
  createLogger,
  EmbeddingsError,
  ImageError,
  RpcError,
  SamplingError,
  StorageError,
  UploadError,
} from "@executa/core";
import { createInvokeContext } from "@executa/core/internal";
import { describe, expect, it } from "vitest";
import { DEADLINE_RESERVE_MS } from "../../src/capabilities/host-call.js";
import { turn } from "../helpers/turns.js";
import { fakeChannel, fakeHost, HOLD } from "./helpers/fake-channel.js";

const message = { messages: [{ role: "user" as const, content: "hi" }], maxTokens: 5 };

describe("stamping and budgets", () => {
  it("stamps context.invoke_id and _clientTimeoutS, dropping undefined params", async () => {
    const { host, sent } = fakeHost({ invokeId: "inv-42" });
    await host.storage.set("k", 1, { timeoutMs: 1234 });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.method).toBe("storage/set");
    expect(sent[0]!.params).toEqual({
      key: "k",
      value: 1,
      scope: "tool",
      _clientTimeoutS: 1.234,
      context: { invoke_id: "inv-42" },
    });
    expect(sent[0]!.options.timeoutMs).toBe(1234);
  });

  it("omits context when the invoke has no id", async () => {
    const { host, sent } = fakeHost({ invokeId: null });
    await host.embeddings.create("t");
    expect(sent[0]!.params).not.toHaveProperty("context");
  });

  it("uses the method default, bounded by the invoke's remaining time less the reserve", async () => {
    const { host, sent, invoke } = fakeHost({ remainingMs: 600_000 });
    await host.sampling.createMessage(message);
    expect(sent[0]!.options.timeoutMs).toBe(90_000);
    invoke.remaining = 2_000;
    await host.sampling.createMessage({ ...message, timeoutMs: 10_000 });
    expect(sent[1]!.options.timeoutMs).toBe(2_000 - DEADLINE_RESERVE_MS);
    expect(sent[1]!.params._clientTimeoutS).toBe((2_000 - DEADLINE_RESERVE_MS) / 1000);
  });

  it("fails with TIMEOUT without sending when no time is left", async () => {
    const { host, sent } = fakeHost({ remainingMs: DEADLINE_RESERVE_MS });
    const error = await host.storage.get("k").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ code: StorageError.codes.TIMEOUT });
    expect(sent).toHaveLength(0);
  });

  it("rejects a bad timeoutMs with INVALID_REQUEST", async () => {
    const { host, sent } = fakeHost();
    await expect(host.image.generate({ prompt: "p", timeoutMs: -1 })).rejects.toMatchObject({
      name: "ImageError",
      code: ImageError.codes.INVALID_REQUEST,
    });
    await expect(host.storage.get("k", { timeoutMs: Number.NaN })).rejects.toMatchObject({ code: -32028 });
    expect(sent).toHaveLength(0);
  });

  it("turns the channel's timeout into the family's TIMEOUT error", async () => {
    const { host, state } = fakeHost();
    state.respond = () => HOLD;
    const error = (await host.upload.confirm("k", { timeoutMs: 20 }).catch((e: unknown) => e)) as UploadError;
    expect(error).toBeInstanceOf(UploadError);
    expect(error.code).toBe(-32208);
    expect(error.isTimeout()).toBe(true);
    expect(error.message).toContain("host/uploadFile");
  });

  it("answers {} for a null result", async () => {
    const { host, state } = fakeHost();
    state.respond = () => null;
    await expect(host.files.delete("a")).resolves.toEqual({});
  });
});

describe("aborts", () => {
  it("rejects with the invoke signal's reason, before or during the call", async () => {
    const before = fakeHost();
    before.invoke.controller.abort(new Error("invoke over"));
    await expect(before.host.storage.get("k")).rejects.toThrow("invoke over");
    expect(before.sent).toHaveLength(0);

    const during = fakeHost();
    during.state.respond = () => HOLD;
    const pending = during.host.agent.session.run("aps_1", "go");
    await turn();
    during.invoke.controller.abort(new Error("deadline"));
    await expect(pending).rejects.toThrow("deadline");
    expect(during.sent).toHaveLength(1);
  });

  it("rejects with the caller's signal reason; an AbortError when it has none", async () => {
    const { host, state } = fakeHost();
    state.respond = () => HOLD;
    const controller = new AbortController();
    const pending = host.embeddings.create("t", { signal: controller.signal });
    controller.abort();
    const error = (await pending.catch((e: unknown) => e)) as Error;
    expect(error.name).toBe("AbortError");
    expect(error).not.toBeInstanceOf(CapabilityError);
  });
});

describe("negotiation and grants", () => {
  it("fails locally with each family's NOT_NEGOTIATED (storage, files, agent: NOT_GRANTED)", async () => {
    const { host, sent } = fakeHost({ version: "1.1" });
    const cases: [Promise<unknown>, Function, number][] = [
      [host.sampling.createMessage(message), SamplingError, -32008],
      [host.storage.get("k"), StorageError, -32021],
      [host.files.list(), StorageError, -32021],
      [host.upload.inline({ filename: "a", mimeType: "text/plain", content: "x" }), UploadError, -32210],
      [host.image.edit({ imageUrl: "https://i", prompt: "p" }), ImageError, -32107],
      [host.embeddings.create("t"), EmbeddingsError, -32507],
      [host.agent.complete(message), AgentError, -32041],
    ];
    for (const [promise, type, code] of cases) {
      const error = (await promise.catch((e: unknown) => e)) as CapabilityError;
      expect(error).toBeInstanceOf(type);
      expect(error.code).toBe(code);
      expect(error.isNotNegotiated()).toBe(true);
    }
    expect(sent).toHaveLength(0);
  });

  it("NOT_NEGOTIATED wins over bad arguments", async () => {
    const { host } = fakeHost({ version: "1.1" });
    await expect(host.sampling.createMessage({ messages: [], maxTokens: 0 })).rejects.toMatchObject({
      code: -32008,
    });
  });

  it("fails with NOT_GRANTED naming the missing host_capabilities entry", async () => {
    const { host, sent } = fakeHost({ capabilities: ["llm.image"] });
    const error = (await host.image
      .edit({ imageUrl: "https://i", prompt: "p" })
      .catch((e: unknown) => e)) as ImageError;
    expect(error.isNotGranted()).toBe(true);
    expect(error.isNotNegotiated()).toBe(false);
    expect(error.message).toBe(
      'image/edit needs the "llm.image.edit" host capability: add "llm.image.edit" to host_capabilities in the plugin manifest',
    );
    await expect(host.image.generate({ prompt: "p" })).resolves.toMatchObject({ images: [] });
    expect(sent.map((s) => s.method)).toEqual(["image/generate"]);
  });
});

describe("error mapping", () => {
  it("maps host error frames to the family's error with code, message and data", async () => {
    const { host, state } = fakeHost();
    state.respond = () => {
      throw new RpcError(-32023, "etag mismatch", { current: "e2" });
    };
    const error = (await host.storage
      .set("k", 1, { ifMatch: "e1" })
      .catch((e: unknown) => e)) as StorageError;
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toBeInstanceOf(CapabilityError);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({
      name: "StorageError",
      family: "storage",
      code: -32023,
      data: { current: "e2" },
    });
    expect(error.message).toBe("etag mismatch");
    expect(error.isPreconditionFailed()).toBe(true);
    expect(error.isNotFound()).toBe(false);
    expect(error.toJSON()).toEqual({ code: -32023, message: "etag mismatch", data: { current: "e2" } });
  });

  it("reports the host's routing errors", async () => {
    const { host, state } = fakeHost();
    state.respond = () => {
      throw new RpcError(-32602, "unknown invoke", { errorCode: "UNKNOWN_INVOKE_CONTEXT" });
    };
    const error = (await host.sampling.createMessage(message).catch((e: unknown) => e)) as SamplingError;
    expect(error.invokeContextError).toBe("UNKNOWN_INVOKE_CONTEXT");
    expect(error.isInvalidRequest()).toBe(true);
  });

  it("wraps a non-RPC failure of the channel as the family's -32603, keeping the cause", async () => {
    const { host, state } = fakeHost();
    const cause = new TypeError("boom");
    state.respond = () => {
      throw cause;
    };
    const error = (await host.agent.session.list().catch((e: unknown) => e)) as AgentError;
    expect(error).toBeInstanceOf(AgentError);
    expect(error.code).toBe(-32603);
    expect(error.message).toBe("agent/session.list failed: boom");
    expect((error as { cause?: unknown }).cause).toBe(cause);
  });

  it("has the named helpers callers branch on", () => {
    expect(new SamplingError(-32009, "no").isUserDenied()).toBe(true);
    expect(new SamplingError(-32010, "no").isUnsupportedResponseFormat()).toBe(true);
    expect(new SamplingError(-32006, "no").isLimitExceeded()).toBe(true);
    expect(new SamplingError(-32002, "no").isQuotaExceeded()).toBe(true);
    expect(new StorageError(-32022, "no").isNotFound()).toBe(true);
    expect(new StorageError(-32026, "no").isRateLimited()).toBe(true);
    expect(new StorageError(-32025, "no").isValueTooLarge()).toBe(true);
    expect(new StorageError(-32027, "no").isInvalidPath()).toBe(true);
    expect(new UploadError(-32204, "no").isTooLarge()).toBe(true);
    expect(new UploadError(-32205, "no").isMimeRejected()).toBe(true);
    expect(new UploadError(-32212, "no").isNotFound()).toBe(true);
    expect(new ImageError(-32312, "no").isUnsupported()).toBe(true);
    expect(new ImageError(-32314, "no").isReferenceFetchFailed()).toBe(true);
    expect(new EmbeddingsError(-32506, "no").isMaxTokensExceeded()).toBe(true);
    expect(new AgentError(-32042, "no").isSessionNotFound()).toBe(true);
    expect(new AgentError(-32048, "no").isToolNotGranted()).toBe(true);
    expect(new AgentError(-32005, "no").isTimeout()).toBe(true);
    expect(AgentError.codes.TIMEOUT).toBe(SamplingError.codes.TIMEOUT);
    expect(StorageError.codes.PRECONDITION_FAILED).toBe(-32023);
    expect(new StorageError(-32022, "no").isTimeout()).toBe(false);
  });
});

describe("invoke context", () => {
  it("ctx.host uses the invoke's channel, id and signal", async () => {
    const { channel, sent } = fakeChannel();
    const controller = new AbortController();
    const ctx = createInvokeContext({
      tool: "t",
      invokeId: "ctx-1",
      deadlineMs: Date.now() + 5_000,
      signal: controller.signal,
      wire: {},
      declaredCredentials: [],
      log: createLogger("test", { level: "error" }),
      channel,
    });
    await ctx.host.storage.get("k");
    expect(sent[0]!.params.context).toEqual({ invoke_id: "ctx-1" });
    expect(sent[0]!.options.timeoutMs).toBeLessThanOrEqual(5_000 - DEADLINE_RESERVE_MS);
    expect(sent[0]!.options.signal).toBe(controller.signal);
  });
});
