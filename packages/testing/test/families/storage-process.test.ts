// The storage family (`aps.kv`) end to end: a plugin's `ctx.host.storage` against the local host.
import { StorageErrorCode } from "@executa/core";
import { describe, expect, it } from "vitest";
import { failed, MODES, ok, useProbe } from "./harness.js";

const start = useProbe();

describe.each(MODES)("storage (%s)", (mode) => {
  it("sets, reads, lists, updates and deletes values with etags", async () => {
    const probe = await start(mode);
    const [set, get, listed, updated, again, removed, gone] = await probe.run(
      { op: "storage.set", input: { key: "note:1", value: { title: "first" } } },
      { op: "storage.get", input: { key: "note:1" } },
      { op: "storage.list", input: { prefix: "note:" } },
      { op: "storage.update", input: { key: "count", add: 2 } },
      { op: "storage.update", input: { key: "count", add: 3 } },
      { op: "storage.delete", input: { key: "note:1" } },
      { op: "storage.get", input: { key: "note:1" } },
    );
    const etag = ok(set).etag;
    expect(etag).toEqual(expect.any(String));
    expect(ok(get)).toMatchObject({ value: { title: "first" }, etag, exists: true });
    expect(ok(listed).items.map((item: { key: string }) => item.key)).toEqual(["note:1"]);
    expect(ok(updated).value).toBe(2);
    expect(ok(again)).toMatchObject({ value: 5, attempts: 1 });
    expect(ok(removed)).toBeDefined();
    expect(ok(gone)).toMatchObject({ value: null, exists: false });
  });

  it("keeps tool, app and user scopes apart", async () => {
    const probe = await start(mode);
    const [, , tool, user] = await probe.run(
      { op: "storage.set", input: { key: "k", value: "tool" } },
      { op: "storage.set", input: { key: "k", value: "user", scope: "user" } },
      { op: "storage.get", input: { key: "k" } },
      { op: "storage.get", input: { key: "k", scope: "user" } },
    );
    expect(ok(tool).value).toBe("tool");
    expect(ok(user).value).toBe("user");
  });

  it("answers a stale ifMatch with PRECONDITION_FAILED (-32023)", async () => {
    const probe = await start(mode);
    const [, stale, staleDelete] = await probe.run(
      { op: "storage.set", input: { key: "k", value: 1 } },
      { op: "storage.set", input: { key: "k", value: 2, ifMatch: "not-the-etag" } },
      { op: "storage.delete", input: { key: "k", ifMatch: "not-the-etag" } },
    );
    expect(failed(stale, StorageErrorCode.PRECONDITION_FAILED, "StorageError").message).toMatch(
      /etag|match/i,
    );
    failed(staleDelete, StorageErrorCode.PRECONDITION_FAILED);
  });

  it("refuses a value over the host's size cap with VALUE_TOO_LARGE (-32025)", async () => {
    const probe = await start(mode, { local: { maxValueBytes: 64 } });
    const [big] = await probe.run({ op: "storage.set", input: { key: "k", value: "x".repeat(100) } });
    failed(big, StorageErrorCode.VALUE_TOO_LARGE, "StorageError");
  });

  it("refuses bad requests with INVALID_REQUEST (-32028)", async () => {
    const probe = await start(mode);
    const [emptyKey, badTtl] = await probe.run(
      { op: "storage.set", input: { key: "", value: 1 } },
      { op: "storage.set", input: { key: "k", value: 1, ttlSeconds: -5 } },
    );
    failed(emptyKey, StorageErrorCode.INVALID_REQUEST, "StorageError");
    failed(badTtl, StorageErrorCode.INVALID_REQUEST);
  });

  it("answers NOT_GRANTED (-32021) when the host does not grant aps.kv", async () => {
    const probe = await start(mode, { grantedCapabilities: ["llm.sample"] });
    const [refused] = await probe.run({ op: "storage.get", input: { key: "k" } });
    failed(refused, StorageErrorCode.NOT_GRANTED, "StorageError");
  });

  it("refuses with NOT_GRANTED (-32021, storage has no not-negotiated code) on a 1.1 host", async () => {
    const probe = await start(mode, { protocolVersion: "1.1" });
    const [refused] = await probe.run({ op: "storage.get", input: { key: "k" } });
    expect(failed(refused, StorageErrorCode.NOT_GRANTED).data).toMatchObject({ reason: "not_negotiated" });
  });
});
