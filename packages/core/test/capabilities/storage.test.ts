// storage.* in process: normalization, validation and the optimistic-update helper.
import { RpcError, type StorageError } from "@executa/core";
import { describe, expect, it } from "vitest";
import { backoffDelay } from "../../src/capabilities/backoff.js";
import { fakeHost } from "./helpers/fake-channel.js";

const conflict = () => new RpcError(-32023, "etag mismatch");

describe("storage", () => {
  it("normalizes get and list answers", async () => {
    const { host, state } = fakeHost();
    state.respond = (method) => (method === "storage/get" ? { value: null } : {});
    await expect(host.storage.get("k")).resolves.toEqual({ value: null, exists: false });
    await expect(host.storage.list()).resolves.toEqual({ items: [], next_cursor: null });
  });

  it("refuses a list whose items is not a list, as a malformed reply", async () => {
    const { host, state } = fakeHost();
    state.respond = () => ({ items: "nope" });
    await expect(host.storage.list()).rejects.toMatchObject({
      code: -32029,
      message: "storage/list: the host sent a malformed reply: items must be an array, got string",
    });
  });

  it("rejects bad keys, scopes and values before sending", async () => {
    const { host, sent } = fakeHost();
    await expect(host.storage.get("")).rejects.toMatchObject({ code: -32028 });
    await expect(host.storage.get("k", { scope: "global" as never })).rejects.toThrow(
      `storage/get: scope must be "user", "app" or "tool", got "global"`,
    );
    await expect(host.storage.set("k", undefined)).rejects.toThrow(/not undefined/);
    await expect(host.files.downloadUrl("")).rejects.toMatchObject({ name: "StorageError", code: -32028 });
    expect(sent).toHaveLength(0);
  });
});

describe("storage.update", () => {
  it("passes undefined for a missing key and writes without if_match", async () => {
    const { host, sent, state } = fakeHost();
    state.respond = (method) => (method === "storage/get" ? { value: null, exists: false } : { etag: "e1" });
    const seen: unknown[] = [];
    const result = await host.storage.update<string[]>("list", (current) => {
      seen.push(current);
      return [...(current ?? []), "a"];
    });
    expect(seen).toEqual([undefined]);
    expect(result).toEqual({ value: ["a"], etag: "e1", attempts: 1 });
    expect(sent[1]!.params).not.toHaveProperty("if_match");
    expect(sent[1]!.params.value).toEqual(["a"]);
  });

  it("passes scope and ttl to every read and write", async () => {
    const { host, sent, state } = fakeHost();
    state.respond = (method) => (method === "storage/get" ? { value: 1, etag: "e1", exists: true } : {});
    await host.storage.update<number>("n", (n) => (n ?? 0) + 1, { scope: "user", ttlSeconds: 30 });
    expect(sent.map((s) => [s.method, s.params.scope, s.params.ttl_seconds, s.params.if_match])).toEqual([
      ["storage/get", "user", undefined, undefined],
      ["storage/set", "user", 30, "e1"],
    ]);
  });

  it("does not retry other errors", async () => {
    const { host, sent, state } = fakeHost();
    state.respond = (method) => {
      if (method === "storage/get") return { value: 1, etag: "e1", exists: true };
      throw new RpcError(-32024, "quota");
    };
    await expect(host.storage.update<number>("n", (n) => (n ?? 0) + 1)).rejects.toMatchObject({
      code: -32024,
    });
    expect(sent).toHaveLength(2);
  });

  it("stops retrying when the next wait would pass the invoke's deadline", async () => {
    const { host, sent, state } = fakeHost({ remainingMs: 60 });
    state.respond = (method) => {
      if (method === "storage/get") return { value: 1, etag: "e1", exists: true };
      throw conflict();
    };
    const error = (await host.storage
      .update<number>("n", (n) => (n ?? 0) + 1, { maxAttempts: 10, backoff: { baseMs: 500, maxMs: 500 } })
      .catch((e: unknown) => e)) as StorageError;
    // Only a zero-length wait fits in the 10 ms left after the reserve.
    expect(error.isPreconditionFailed()).toBe(true);
    expect(sent.filter((s) => s.method === "storage/set").length).toBeLessThan(10);
  });

  it("validates its options", async () => {
    const { host, sent } = fakeHost();
    await expect(host.storage.update("n", (n) => n, { maxAttempts: 0 })).rejects.toThrow(/maxAttempts/);
    await expect(host.storage.update("n", "x" as never)).rejects.toThrow(/fn must be a function/);
    expect(sent).toHaveLength(0);
  });

  it("rejects with the abort reason when the invoke ends during a backoff", async () => {
    const { host, state, invoke } = fakeHost();
    state.respond = (method) => {
      if (method === "storage/get") return { value: 1, etag: "e1", exists: true };
      setImmediate(() => invoke.controller.abort(new Error("invoke ended")));
      throw conflict();
    };
    await expect(
      host.storage.update<number>("n", (n) => (n ?? 0) + 1, { backoff: { baseMs: 1000, maxMs: 1000 } }),
    ).rejects.toThrow("invoke ended");
  });
});

describe("backoffDelay", () => {
  it("is full jitter under an exponential ceiling", () => {
    expect(backoffDelay(1, { baseMs: 100, maxMs: 1000 }, () => 1)).toBe(100);
    expect(backoffDelay(3, { baseMs: 100, maxMs: 1000 }, () => 1)).toBe(400);
    expect(backoffDelay(10, { baseMs: 100, maxMs: 1000 }, () => 1)).toBe(1000);
    expect(backoffDelay(3, { baseMs: 100, maxMs: 1000 }, () => 0)).toBe(0);
    expect(backoffDelay(2, {}, () => 0.5)).toBe(50);
    expect(() => backoffDelay(1, { baseMs: -1 })).toThrow(RangeError);
  });
});
