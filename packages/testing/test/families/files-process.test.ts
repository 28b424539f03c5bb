// The files family (`aps.files`) end to end: presigned PUT/GET against the local host's loopback server.
import { StorageErrorCode } from "@executa/core";
import { describe, expect, it } from "vitest";
import { failed, MODES, ok, useProbe } from "./harness.js";

const start = useProbe();

describe.each(MODES)("files (%s)", (mode) => {
  it("uploads by presigned PUT, downloads by presigned URL, lists and deletes", async () => {
    const probe = await start(mode);
    const [uploaded, listed, removed, gone] = await probe.run(
      { op: "files.upload", input: { path: "notes/a.txt", text: "hello files", contentType: "text/plain" } },
      { op: "files.list", input: { prefix: "notes/" } },
      { op: "files.delete", input: { path: "notes/a.txt" } },
      { op: "files.downloadUrl", input: { path: "notes/a.txt" } },
    );
    expect(ok(uploaded)).toMatchObject({
      uploaded: { path: "notes/a.txt", sizeBytes: 11, etag: expect.any(String) },
      downloaded: "hello files",
    });
    expect(ok(listed).items.map((item: { path: string }) => item.path)).toEqual(["notes/a.txt"]);
    expect(ok(removed)).toBeDefined();
    failed(gone, StorageErrorCode.NOT_FOUND, "StorageError");
  });

  it("answers NOT_FOUND (-32022) for a download of, or a completion without, an upload", async () => {
    const probe = await start(mode);
    const [missing, noBegin] = await probe.run(
      { op: "files.downloadUrl", input: { path: "nothing/here.bin" } },
      { op: "files.uploadComplete", input: { path: "never/begun.bin" } },
    );
    failed(missing, StorageErrorCode.NOT_FOUND, "StorageError");
    failed(noBegin, StorageErrorCode.NOT_FOUND, "StorageError");
  });

  it("refuses unsafe object paths with INVALID_PATH (-32027)", async () => {
    const probe = await start(mode);
    const outcomes = await probe.run(
      { op: "files.downloadUrl", input: { path: "../escape.txt" } },
      { op: "files.downloadUrl", input: { path: "/absolute.txt" } },
      { op: "files.delete", input: { path: "a\\b.txt" } },
    );
    for (const outcome of outcomes) failed(outcome, StorageErrorCode.INVALID_PATH, "StorageError");
  });

  it("refuses an object over the host's size cap with VALUE_TOO_LARGE (-32025)", async () => {
    const probe = await start(mode, { local: { maxObjectBytes: 8 } });
    const [big] = await probe.run({ op: "files.upload", input: { path: "big.txt", text: "x".repeat(100) } });
    failed(big, StorageErrorCode.VALUE_TOO_LARGE, "StorageError");
  });

  it("answers NOT_GRANTED (-32021) when the host grants storage but not files, and on a 1.1 host", async () => {
    const granted = await start(mode, { grantedCapabilities: ["aps.kv"] });
    const [refused, kv] = await granted.run(
      { op: "files.list" },
      { op: "storage.set", input: { key: "k", value: 1 } },
    );
    failed(refused, StorageErrorCode.NOT_GRANTED, "StorageError");
    ok(kv);
    const old = await start(mode, { protocolVersion: "1.1" });
    const [notNegotiated] = await old.run({ op: "files.list" });
    expect(failed(notNegotiated, StorageErrorCode.NOT_GRANTED).data).toMatchObject({
      reason: "not_negotiated",
    });
  });
});
