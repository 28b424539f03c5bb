import { StorageErrorCode } from "@executa/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalProviders, type LocalProviders } from "../../src/local/create-local-providers.js";
import { expectRpcError, manualClock, reverseCall, tempDir } from "../helpers/calls.js";

type Result = Record<string, unknown>;

describe("FilesProvider", () => {
  let dir: ReturnType<typeof tempDir>;
  let clock: ReturnType<typeof manualClock>;
  let local: LocalProviders;
  const run = async (method: string, params: Record<string, unknown>) =>
    (await local.providers.files!.handle(reverseCall(method, params))) as Result;

  async function upload(path: string, body: string, declared = Buffer.byteLength(body)) {
    const begun = await run("files/upload_begin", {
      scope: "tool",
      path,
      size_bytes: declared,
      content_type: "text/plain",
    });
    const put = await fetch(begun.put_url as string, {
      method: "PUT",
      headers: begun.headers as Record<string, string>,
      body,
    });
    return { begun, put };
  }

  beforeEach(() => {
    dir = tempDir();
    clock = manualClock(Date.now());
    local = createLocalProviders({ dataDir: dir.path, sampling: { mode: "echo" }, now: clock.now });
  });
  afterEach(async () => {
    await local.close();
    dir.remove();
  });

  it("uploads through a presigned PUT URL and downloads through a presigned GET URL", async () => {
    const { begun, put } = await upload("notes/a.txt", "hello files");
    expect(begun).toMatchObject({ upload_id: expect.any(String), headers: { "content-type": "text/plain" } });
    expect(begun.put_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(put.status).toBe(200);
    const etag = put.headers.get("etag");
    const done = await run("files/upload_complete", {
      scope: "tool",
      path: "notes/a.txt",
      etag,
      size_bytes: 11,
    });
    expect(done).toMatchObject({
      path: "notes/a.txt",
      scope: "tool",
      size_bytes: 11,
      content_type: "text/plain",
    });

    const link = await run("files/download_url", { scope: "tool", path: "notes/a.txt", expires_in: 60 });
    expect(link.expires_at).toBe(new Date(clock.now() + 60_000).toISOString());
    const got = await fetch(link.url as string);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("text/plain");
    expect(await got.text()).toBe("hello files");
  });

  it("answers 403 to an expired or tampered URL", async () => {
    await upload("a.txt", "abc");
    await run("files/upload_complete", { scope: "tool", path: "a.txt" });
    const { url } = await run("files/download_url", { scope: "tool", path: "a.txt", expires_in: 10 });
    const good = new URL(url as string);

    const tamperedSig = new URL(good);
    tamperedSig.searchParams.set("sig", `${good.searchParams.get("sig")!.slice(0, -2)}xx`);
    expect((await fetch(tamperedSig)).status).toBe(403);

    const extended = new URL(good);
    extended.searchParams.set("exp", String(Number(good.searchParams.get("exp")) + 3_600_000));
    expect((await fetch(extended)).status).toBe(403);

    const otherObject = new URL(good);
    otherObject.pathname = `/files/${Buffer.from(JSON.stringify(["tool:tester:plugin", "b.txt"])).toString("base64url")}`;
    expect((await fetch(otherObject)).status).toBe(403);

    const unsigned = new URL(good);
    unsigned.search = "";
    expect((await fetch(unsigned)).status).toBe(403);

    // A GET URL does not authorize a PUT.
    expect((await fetch(good, { method: "PUT", body: "x" })).status).toBe(404);

    expect((await fetch(good)).status).toBe(200);
    clock.advance(10_000);
    const expired = await fetch(good);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain("expired");
  });

  it("rejects an expired PUT URL", async () => {
    const begun = await run("files/upload_begin", { scope: "tool", path: "late.txt", size_bytes: 1 });
    clock.advance(16 * 60 * 1000);
    expect((await fetch(begun.put_url as string, { method: "PUT", body: "x" })).status).toBe(403);
  });

  it("fails upload_complete on a size mismatch, before any upload, and on a wrong etag", async () => {
    await run("files/upload_begin", { scope: "tool", path: "none.txt", size_bytes: 3 });
    await expectRpcError(
      () => run("files/upload_complete", { scope: "tool", path: "none.txt" }),
      StorageErrorCode.INVALID_REQUEST,
    );
    await upload("short.txt", "abc", 10);
    const mismatch = await expectRpcError(
      () => run("files/upload_complete", { scope: "tool", path: "short.txt" }),
      StorageErrorCode.INVALID_REQUEST,
    );
    expect(mismatch.data).toEqual({ expected_size_bytes: 10, received_size_bytes: 3 });
    await expectRpcError(
      () => run("files/upload_complete", { scope: "tool", path: "short.txt", size_bytes: 4 }),
      StorageErrorCode.INVALID_REQUEST,
    );
    await expectRpcError(
      () => run("files/upload_complete", { scope: "tool", path: "short.txt", size_bytes: 3, etag: '"beef"' }),
      StorageErrorCode.PRECONDITION_FAILED,
    );
    await expectRpcError(
      () => run("files/upload_complete", { scope: "tool", path: "never-begun.txt" }),
      StorageErrorCode.NOT_FOUND,
    );
  });

  it("lists, deletes and reports missing objects", async () => {
    for (const name of ["docs/1.txt", "docs/2.txt", "img/x.png"]) {
      await upload(name, name);
      await run("files/upload_complete", { scope: "tool", path: name });
    }
    const page = await run("files/list", { scope: "tool", prefix: "docs/", limit: 1 });
    expect(page.items).toMatchObject([{ path: "docs/1.txt", size_bytes: 10 }]);
    const rest = await run("files/list", { scope: "tool", prefix: "docs/", cursor: page.next_cursor });
    expect(rest.items).toMatchObject([{ path: "docs/2.txt" }]);
    expect(rest.next_cursor).toBeNull();
    expect(await run("files/delete", { scope: "tool", path: "docs/1.txt" })).toEqual({ deleted: true });
    expect(await run("files/delete", { scope: "tool", path: "docs/1.txt" })).toEqual({ deleted: false });
    await expectRpcError(
      () => run("files/download_url", { scope: "tool", path: "docs/1.txt" }),
      StorageErrorCode.NOT_FOUND,
    );
    // Files show up in storage/list as kind "file".
    const listed = (await local.providers.storage!.handle(
      reverseCall("storage/list", { scope: "tool", kind: "file" }),
    )) as Result;
    expect((listed.items as Result[]).map((i) => i.key)).toEqual(["docs/2.txt", "img/x.png"]);
  });

  it("rejects invalid paths with -32027", async () => {
    for (const path of ["", "/abs", "a/../b", "a//b", "a\\b", "bad\u0001"]) {
      await expectRpcError(
        () => run("files/upload_begin", { scope: "tool", path }),
        StorageErrorCode.INVALID_PATH,
      );
    }
  });

  it("serves user_files/* as the user scope", async () => {
    const begun = await run("user_files/upload_begin", { path: "mine.txt", size_bytes: 2 });
    await fetch(begun.put_url as string, { method: "PUT", body: "hi" });
    await run("user_files/upload_complete", { path: "mine.txt" });
    expect((await run("files/list", { scope: "user" })).items).toMatchObject([
      { path: "mine.txt", scope: "user" },
    ]);
  });
});
