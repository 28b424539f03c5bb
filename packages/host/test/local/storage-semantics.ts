import { StorageErrorCode } from "@executa/core";
import { afterEach, beforeEach, expect, it } from "vitest";
import { StorageProvider } from "../../src/local/storage-provider.js";
import type { EntryStore } from "../../src/local/store/entry-store.js";
import { expectRpcError, manualClock, reverseCall } from "../helpers/calls.js";

type Result = Record<string, unknown>;

/** A store to run the storage semantics on: a fresh, empty one per test. */
export interface StorageBackend {
  /** Opens a store that is empty for this test, on the clock given. */
  open(now: () => number): Promise<EntryStore>;
  /** Opens the same database again (a second process, or after a restart). */
  reopen(now: () => number): Promise<EntryStore>;
  /** Called after each test, once its stores are closed. */
  cleanUp?(): void | Promise<void>;
}

/**
 * The semantics every storage database gives `storage/*`: scopes kept apart, etag and
 * generation, `if_match`, TTL, value size, pagination. Called inside a `describe` per
 * backend (SQLite in process, PostgreSQL in the process tier).
 */
export function storageSemantics(backend: StorageBackend): void {
  let stores: EntryStore[] = [];
  let clock: ReturnType<typeof manualClock>;
  let storage: StorageProvider;
  const store = () => stores[stores.length - 1] as EntryStore;
  const run = async (method: string, params: Record<string, unknown>, context = {}) =>
    (await storage.handle(reverseCall(`storage/${method}`, params, context))) as Result;

  beforeEach(async () => {
    clock = manualClock();
    stores = [await backend.open(clock.now)];
    storage = new StorageProvider({ store: store(), maxValueBytes: 64, now: clock.now });
  });
  afterEach(async () => {
    for (const opened of stores) await opened.close();
    await backend.cleanUp?.();
  });

  it("sets and gets any JSON value with etag and generation", async () => {
    const first = await run("set", { scope: "tool", key: "k", value: { a: [1, 2] } });
    expect(first).toMatchObject({ generation: 1, size_bytes: 11 });
    expect(typeof first.etag).toBe("string");
    const got = await run("get", { scope: "tool", key: "k" });
    expect(got).toMatchObject({ exists: true, value: { a: [1, 2] }, etag: first.etag, generation: 1 });
    const second = await run("set", { scope: "tool", key: "k", value: null });
    expect(second.generation).toBe(2);
    expect(second.etag).not.toBe(first.etag);
    expect(await run("get", { scope: "tool", key: "k" })).toMatchObject({ exists: true, value: null });
  });

  it("answers exists: false for a missing key", async () => {
    expect(await run("get", { scope: "user", key: "nope" })).toEqual({ exists: false, value: null });
  });

  it("keeps the user, app and tool scopes (and plugins) apart", async () => {
    const app = { appId: "my-app" };
    await run("set", { scope: "user", key: "k", value: "user" }, app);
    await run("set", { scope: "app", key: "k", value: "app" }, app);
    await run("set", { scope: "tool", key: "k", value: "tool" }, app);
    expect((await run("get", { scope: "user", key: "k" }, app)).value).toBe("user");
    expect((await run("get", { scope: "app", key: "k" }, app)).value).toBe("app");
    expect((await run("get", { scope: "tool", key: "k" }, app)).value).toBe("tool");
    expect((await run("get", { scope: "tool", key: "k" }, { pluginName: "other" })).exists).toBe(false);
    expect((await run("get", { scope: "user", key: "k" }, { userId: "someone-else" })).exists).toBe(false);
    expect((await run("get", { scope: "app", key: "k" }, { appId: "other-app" })).exists).toBe(false);
  });

  it("grants app scope only with an app id", async () => {
    await expectRpcError(
      () => run("set", { scope: "app", key: "k", value: 1 }),
      StorageErrorCode.NOT_GRANTED,
    );
  });

  it("rejects a missing or unknown scope and a bad key", async () => {
    await expectRpcError(() => run("get", { key: "k" }), StorageErrorCode.INVALID_REQUEST);
    await expectRpcError(() => run("get", { scope: "global", key: "k" }), StorageErrorCode.INVALID_REQUEST);
    await expectRpcError(() => run("get", { scope: "tool", key: "" }), StorageErrorCode.INVALID_REQUEST);
    await expectRpcError(() => run("set", { scope: "tool", key: "k" }), StorageErrorCode.INVALID_REQUEST);
  });

  it("honors if_match on set and delete (-32023 on a stale or missing etag)", async () => {
    const { etag } = await run("set", { scope: "tool", key: "k", value: 1 });
    const next = await run("set", { scope: "tool", key: "k", value: 2, if_match: etag });
    expect(next.generation).toBe(2);
    const conflict = await expectRpcError(
      () => run("set", { scope: "tool", key: "k", value: 3, if_match: etag }),
      StorageErrorCode.PRECONDITION_FAILED,
    );
    expect(conflict.data).toMatchObject({ current_etag: next.etag, current_generation: 2 });
    expect((await run("get", { scope: "tool", key: "k" })).value).toBe(2);
    await expectRpcError(
      () => run("set", { scope: "tool", key: "fresh", value: 1, if_match: "whatever" }),
      StorageErrorCode.PRECONDITION_FAILED,
    );
    await expectRpcError(
      () => run("delete", { scope: "tool", key: "k", if_match: etag }),
      StorageErrorCode.PRECONDITION_FAILED,
    );
    expect(await run("delete", { scope: "tool", key: "k", if_match: next.etag })).toEqual({ deleted: true });
    expect((await run("get", { scope: "tool", key: "k" })).exists).toBe(false);
    expect(await run("delete", { scope: "tool", key: "k" })).toEqual({ deleted: false });
  });

  it("expires values after ttl_seconds", async () => {
    const set = await run("set", { scope: "tool", key: "k", value: "v", ttl_seconds: 10 });
    expect(set.expires_at).toBe(new Date(clock.now() + 10_000).toISOString());
    clock.advance(9_999);
    expect((await run("get", { scope: "tool", key: "k" })).exists).toBe(true);
    clock.advance(1);
    expect((await run("get", { scope: "tool", key: "k" })).exists).toBe(false);
    expect((await run("list", { scope: "tool" })).items).toEqual([]);
    // An expired key starts over at generation 1.
    expect((await run("set", { scope: "tool", key: "k", value: "again" })).generation).toBe(1);
  });

  it("rejects a bad ttl", async () => {
    await expectRpcError(
      () => run("set", { scope: "tool", key: "k", value: 1, ttl_seconds: 0 }),
      StorageErrorCode.INVALID_REQUEST,
    );
  });

  it("limits value size (-32025)", async () => {
    await run("set", { scope: "tool", key: "k", value: "x".repeat(62) }); // 64 bytes with quotes
    const error = await expectRpcError(
      () => run("set", { scope: "tool", key: "k", value: "x".repeat(63) }),
      StorageErrorCode.VALUE_TOO_LARGE,
    );
    expect(error.data).toEqual({ size_bytes: 65, max_bytes: 64 });
  });

  it("lists by prefix with cursor pagination", async () => {
    for (const key of ["a/3", "a/1", "b/1", "a/2", "a/4", "a/5"])
      await run("set", { scope: "tool", key, value: key });
    const keys: string[] = [];
    let cursor: unknown;
    let pages = 0;
    do {
      const page = await run("list", {
        scope: "tool",
        prefix: "a/",
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      keys.push(...(page.items as { key: string }[]).map((item) => item.key));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor);
    expect(keys).toEqual(["a/1", "a/2", "a/3", "a/4", "a/5"]);
    expect(pages).toBe(3);
    const all = await run("list", { scope: "tool" });
    expect((all.items as unknown[]).length).toBe(6);
    expect(all.next_cursor).toBeNull();
    expect((all.items as Result[])[0]).toMatchObject({ key: "a/1", kind: "kv", generation: 1 });
  });

  it("filters the listing by kind and rejects bad list params", async () => {
    await run("set", { scope: "tool", key: "doc", value: 1 });
    await store().put("tool:tester:plugin", "file", "doc", {
      sizeBytes: 3,
      blob: "b",
      contentType: "text/plain",
    });
    expect(((await run("list", { scope: "tool" })).items as Result[]).map((i) => i.kind)).toEqual([
      "file",
      "kv",
    ]);
    expect(((await run("list", { scope: "tool", kind: "kv" })).items as Result[]).map((i) => i.kind)).toEqual(
      ["kv"],
    );
    expect((await run("list", { scope: "tool", kind: "file" })).items).toMatchObject([
      { key: "doc", kind: "file", content_type: "text/plain" },
    ]);
    await expectRpcError(
      () => run("list", { scope: "tool", kind: "blob" }),
      StorageErrorCode.INVALID_REQUEST,
    );
    await expectRpcError(() => run("list", { scope: "tool", limit: 0 }), StorageErrorCode.INVALID_REQUEST);
    await expectRpcError(
      () => run("list", { scope: "tool", cursor: "garbage" }),
      StorageErrorCode.INVALID_REQUEST,
    );
  });

  it("lists keys in the order of their UTF-8 bytes, whatever the database's locale", async () => {
    for (const key of ["é", "b", "a_1", "B", "z", "a-1"]) await run("set", { scope: "tool", key, value: 1 });
    const page = await run("list", { scope: "tool" });
    expect((page.items as Result[]).map((item) => item.key)).toEqual(["B", "a-1", "a_1", "b", "z", "é"]);
  });

  it("keeps data in the database across store instances", async () => {
    await run("set", { scope: "user", key: "persist", value: 42 });
    await store().close();
    stores.push(await backend.reopen(clock.now));
    storage = new StorageProvider({ store: store(), now: clock.now });
    expect((await run("get", { scope: "user", key: "persist" })).value).toBe(42);
  });
}
