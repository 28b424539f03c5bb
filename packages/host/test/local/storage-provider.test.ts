import { readFileSync } from "node:fs";
import { join } from "node:path";
import { StorageErrorCode } from "@executa/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StorageProvider } from "../../src/local/storage-provider.js";
import { LocalStore } from "../../src/local/store/local-store.js";
import { expectRpcError, manualClock, reverseCall, tempDir } from "../helpers/calls.js";
import { sqliteDrivers } from "../helpers/sqlite-drivers.js";

type Result = Record<string, unknown>;

describe.each(await sqliteDrivers())("StorageProvider on $name", (driver) => {
  let dir: ReturnType<typeof tempDir>;
  let store: LocalStore;
  let clock: ReturnType<typeof manualClock>;
  let storage: StorageProvider;
  const run = (method: string, params: Record<string, unknown>, context = {}) =>
    storage.handle(reverseCall(`storage/${method}`, params, context)) as Result;

  beforeEach(() => {
    dir = tempDir();
    clock = manualClock();
    store = new LocalStore(join(dir.path, "storage.db"), { now: clock.now, driver });
    storage = new StorageProvider({ store, maxValueBytes: 64, now: clock.now });
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  it("sets and gets any JSON value with etag and generation", () => {
    const first = run("set", { scope: "tool", key: "k", value: { a: [1, 2] } });
    expect(first).toMatchObject({ generation: 1, size_bytes: 11 });
    expect(typeof first.etag).toBe("string");
    const got = run("get", { scope: "tool", key: "k" });
    expect(got).toMatchObject({ exists: true, value: { a: [1, 2] }, etag: first.etag, generation: 1 });
    const second = run("set", { scope: "tool", key: "k", value: null });
    expect(second.generation).toBe(2);
    expect(second.etag).not.toBe(first.etag);
    expect(run("get", { scope: "tool", key: "k" })).toMatchObject({ exists: true, value: null });
  });

  it("answers exists: false for a missing key", () => {
    expect(run("get", { scope: "user", key: "nope" })).toEqual({ exists: false, value: null });
  });

  it("keeps the user, app and tool scopes (and plugins) apart", () => {
    const app = { appId: "my-app" };
    run("set", { scope: "user", key: "k", value: "user" }, app);
    run("set", { scope: "app", key: "k", value: "app" }, app);
    run("set", { scope: "tool", key: "k", value: "tool" }, app);
    expect(run("get", { scope: "user", key: "k" }, app).value).toBe("user");
    expect(run("get", { scope: "app", key: "k" }, app).value).toBe("app");
    expect(run("get", { scope: "tool", key: "k" }, app).value).toBe("tool");
    expect(run("get", { scope: "tool", key: "k" }, { pluginName: "other" }).exists).toBe(false);
    expect(run("get", { scope: "user", key: "k" }, { userId: "someone-else" }).exists).toBe(false);
    expect(run("get", { scope: "app", key: "k" }, { appId: "other-app" }).exists).toBe(false);
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
    const { etag } = run("set", { scope: "tool", key: "k", value: 1 });
    const next = run("set", { scope: "tool", key: "k", value: 2, if_match: etag });
    expect(next.generation).toBe(2);
    const conflict = await expectRpcError(
      () => run("set", { scope: "tool", key: "k", value: 3, if_match: etag }),
      StorageErrorCode.PRECONDITION_FAILED,
    );
    expect(conflict.data).toMatchObject({ current_etag: next.etag, current_generation: 2 });
    expect(run("get", { scope: "tool", key: "k" }).value).toBe(2);
    await expectRpcError(
      () => run("set", { scope: "tool", key: "fresh", value: 1, if_match: "whatever" }),
      StorageErrorCode.PRECONDITION_FAILED,
    );
    await expectRpcError(
      () => run("delete", { scope: "tool", key: "k", if_match: etag }),
      StorageErrorCode.PRECONDITION_FAILED,
    );
    expect(run("delete", { scope: "tool", key: "k", if_match: next.etag })).toEqual({ deleted: true });
    expect(run("get", { scope: "tool", key: "k" }).exists).toBe(false);
    expect(run("delete", { scope: "tool", key: "k" })).toEqual({ deleted: false });
  });

  it("expires values after ttl_seconds", () => {
    const set = run("set", { scope: "tool", key: "k", value: "v", ttl_seconds: 10 });
    expect(set.expires_at).toBe(new Date(clock.now() + 10_000).toISOString());
    clock.advance(9_999);
    expect(run("get", { scope: "tool", key: "k" }).exists).toBe(true);
    clock.advance(1);
    expect(run("get", { scope: "tool", key: "k" }).exists).toBe(false);
    expect(run("list", { scope: "tool" }).items).toEqual([]);
    // An expired key starts over at generation 1.
    expect(run("set", { scope: "tool", key: "k", value: "again" }).generation).toBe(1);
  });

  it("rejects a bad ttl", async () => {
    await expectRpcError(
      () => run("set", { scope: "tool", key: "k", value: 1, ttl_seconds: 0 }),
      StorageErrorCode.INVALID_REQUEST,
    );
  });

  it("limits value size (-32025)", async () => {
    run("set", { scope: "tool", key: "k", value: "x".repeat(62) }); // 64 bytes with quotes
    const error = await expectRpcError(
      () => run("set", { scope: "tool", key: "k", value: "x".repeat(63) }),
      StorageErrorCode.VALUE_TOO_LARGE,
    );
    expect(error.data).toEqual({ size_bytes: 65, max_bytes: 64 });
  });

  it("lists by prefix with cursor pagination", () => {
    for (const key of ["a/3", "a/1", "b/1", "a/2", "a/4", "a/5"])
      run("set", { scope: "tool", key, value: key });
    const keys: string[] = [];
    let cursor: unknown;
    let pages = 0;
    do {
      const page = run("list", { scope: "tool", prefix: "a/", limit: 2, ...(cursor ? { cursor } : {}) });
      keys.push(...(page.items as { key: string }[]).map((item) => item.key));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor);
    expect(keys).toEqual(["a/1", "a/2", "a/3", "a/4", "a/5"]);
    expect(pages).toBe(3);
    const all = run("list", { scope: "tool" });
    expect((all.items as unknown[]).length).toBe(6);
    expect(all.next_cursor).toBeNull();
    expect((all.items as Result[])[0]).toMatchObject({ key: "a/1", kind: "kv", generation: 1 });
  });

  it("filters the listing by kind and rejects bad list params", async () => {
    run("set", { scope: "tool", key: "doc", value: 1 });
    store.put("tool:tester:plugin", "file", "doc", { sizeBytes: 3, blob: "b", contentType: "text/plain" });
    expect((run("list", { scope: "tool" }).items as Result[]).map((i) => i.kind)).toEqual(["file", "kv"]);
    expect((run("list", { scope: "tool", kind: "kv" }).items as Result[]).map((i) => i.kind)).toEqual(["kv"]);
    expect(run("list", { scope: "tool", kind: "file" }).items).toMatchObject([
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

  it("keeps data in the database file across store instances", () => {
    run("set", { scope: "user", key: "persist", value: 42 });
    store.close();
    store = new LocalStore(join(dir.path, "storage.db"), { now: clock.now, driver });
    storage = new StorageProvider({ store, now: clock.now });
    expect(run("get", { scope: "user", key: "persist" }).value).toBe(42);
  });

  it("journals in WAL mode on the runtime's SQLite, with a rollback journal on WebAssembly (no shared memory)", () => {
    run("set", { scope: "user", key: "k", value: 1 });
    // The header's write version (byte 18): 1 for a rollback journal, 2 for WAL.
    const writeVersion = readFileSync(join(dir.path, "storage.db"))[18];
    expect(writeVersion).toBe(driver.name === "wasm" ? 1 : 2);
  });
});
