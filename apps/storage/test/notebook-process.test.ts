import { JsonRpcErrorCode } from "@executa/core";
import {
  expectInvalidParams,
  expectRpcError,
  expectSuccess,
  expectToolError,
  type PluginTestClient,
  runInProcess,
} from "@executa/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Notebook } from "../src/notebook.js";

// In-process: the class served by core over in-memory streams, driven by the host with
// its local providers (SQLite storage, loopback files) in a temp directory.

interface NoteData {
  id: number;
  text: string;
  tags: string[];
  created_at: string;
}
interface ListData {
  count: number;
  notes: NoteData[];
  next_cursor: string | null;
  tag?: string;
  _display: { blocks: { type: string; text: string }[] };
}

const USER = "user:local-user";

let plugin: PluginTestClient;
beforeEach(async () => {
  plugin = await runInProcess(Notebook);
});
afterEach(() => plugin?.close());

const append = (text: string, tags?: string[]) =>
  expectSuccess(
    plugin.invoke<{ id: number; tags: string[]; attempts: number }>("note_append", { text, tags }),
  );
const list = (args: Record<string, unknown> = {}) =>
  expectSuccess(plugin.invoke<ListData>("notes_list", args));

describe("note_append", () => {
  it("stores the note in the user scope with normalized tags and answers its id", async () => {
    const first = await append("Buy milk", ["Errands", "errands", "home"]);
    expect(first).toEqual({ id: 1, tags: ["errands", "home"], created_at: expect.any(String), attempts: 1 });
    expect(new Date((first as unknown as NoteData).created_at).toString()).not.toBe("Invalid Date");
    expect((await append("Call Ada")).id).toBe(2);

    const stored = plugin.local!.store.get(USER, "kv", "notebook/notes/0000000001");
    expect(JSON.parse(stored!.valueJson!)).toMatchObject({
      id: 1,
      text: "Buy milk",
      tags: ["errands", "home"],
    });
    expect(plugin.local!.store.get(USER, "kv", "notebook/tags/errands/0000000001")).toBeDefined();
    expect(JSON.parse(plugin.local!.store.get(USER, "kv", "notebook/seq")!.valueJson!)).toEqual({ next: 3 });
  });

  it("rejects blank text, bad tags and too many tags before touching storage", async () => {
    await expectInvalidParams(plugin.invoke("note_append", { text: "   " }), ["text"]);
    await expectInvalidParams(plugin.invoke("note_append", {}), ["text"]);
    await expectInvalidParams(plugin.invoke("note_append", { text: "x", tags: ["a/b"] }), ["tags"]);
    const eleven = Array.from({ length: 11 }, (_, i) => `t${i}`);
    await expectInvalidParams(plugin.invoke("note_append", { text: "x", tags: eleven }), ["tags"]);
    expect(plugin.reverseCalls).toHaveLength(0);
  });

  it("continues after the highest stored id when the counter was deleted", async () => {
    for (const text of ["a", "b", "c"]) await append(text);
    plugin.local!.store.delete(USER, "kv", "notebook/seq");
    expect((await append("d")).id).toBe(4);
  });
});

describe("notes_list", () => {
  it("pages through the notes oldest first with next_cursor", async () => {
    for (let i = 1; i <= 5; i++) await append(`note ${i}`);
    const first = await list({ limit: 2 });
    expect(first.notes.map((note) => note.text)).toEqual(["note 1", "note 2"]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await list({ limit: 2, cursor: first.next_cursor });
    expect(second.notes.map((note) => note.id)).toEqual([3, 4]);
    const last = await list({ limit: 2, cursor: second.next_cursor });
    expect(last.notes.map((note) => note.id)).toEqual([5]);
    expect(last.next_cursor).toBeNull();
    expect((await list()).count).toBe(5);
  });

  it("filters by tag, case-insensitively", async () => {
    await append("one", ["work"]);
    await append("two", ["home"]);
    await append("three", ["work", "urgent"]);
    const work = await list({ tag: "Work" });
    expect(work.tag).toBe("work");
    expect(work.notes.map((note) => note.text)).toEqual(["one", "three"]);
    expect((await list({ tag: "nothing" })).notes).toEqual([]);
  });

  it("adds a Markdown display block", async () => {
    await append("Hello *world*", ["greeting"]);
    const data = await list();
    expect(data._display.blocks).toHaveLength(1);
    expect(data._display.blocks[0]?.text).toContain("**#1**");
    expect(data._display.blocks[0]?.text).toContain("`greeting`");
    expect(data._display.blocks[0]?.text).toContain("Hello \\*world\\*");
    expect((await list({ tag: "none" }))._display.blocks[0]?.text).toBe("*No notes tagged `none`.*");
  });

  it("answers -32602 for a limit out of range and a cursor it did not make", async () => {
    await expectInvalidParams(plugin.invoke("notes_list", { limit: 0 }), ["limit"]);
    await expectInvalidParams(plugin.invoke("notes_list", { limit: 101 }), ["limit"]);
    await expectInvalidParams(plugin.invoke("notes_list", { cursor: "not-a-cursor" }), ["cursor"]);
  });
});

describe("note_delete", () => {
  it("removes the note and its tag markers", async () => {
    await append("keep", ["x"]);
    await append("drop", ["x", "y"]);
    expect(expectSuccess(await plugin.invoke("note_delete", { id: 2 }))).toEqual({ id: 2, deleted: true });
    expect((await list()).notes.map((note) => note.text)).toEqual(["keep"]);
    expect((await list({ tag: "x" })).notes.map((note) => note.id)).toEqual([1]);
    expect(plugin.local!.store.get(USER, "kv", "notebook/tags/y/0000000002")).toBeUndefined();
    expectToolError(await plugin.invoke("note_delete", { id: 2 }), "note 2 not found");
    // Ids are never reused.
    expect((await append("new")).id).toBe(3);
  });

  it("needs a positive integer id", async () => {
    await expectInvalidParams(plugin.invoke("note_delete", { id: 0 }), ["id"]);
    await expectInvalidParams(plugin.invoke("note_delete", { id: "one" }), ["id"]);
  });
});

describe("attachments", () => {
  it("uploads text and serves it back from the download link", async () => {
    const uploaded = expectSuccess(
      await plugin.invoke("attachment_upload", {
        path: "trip/packing list.txt",
        text: "socks\npassport ✓",
        content_type: "text/plain; charset=utf-8",
      }),
    );
    expect(uploaded).toEqual({
      path: "trip/packing list.txt",
      size_bytes: Buffer.byteLength("socks\npassport ✓"),
      content_type: "text/plain; charset=utf-8",
      etag: expect.any(String),
    });
    const link = expectSuccess(
      await plugin.invoke<{ url: string; expires_at: string; _display: unknown }>("attachment_link", {
        path: "trip/packing list.txt",
      }),
    );
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const response = await fetch(link.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toBe("socks\npassport ✓");
    expect(JSON.stringify(link._display)).toContain("packing list.txt");
  });

  it("uploads binary content given as Base64", async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255, 128, 64]);
    expectSuccess(
      await plugin.invoke("attachment_upload", {
        path: "bin/blob.dat",
        base64: bytes.toString("base64"),
        content_type: "application/octet-stream",
      }),
    );
    const link = expectSuccess(
      await plugin.invoke<{ url: string }>("attachment_link", { path: "bin/blob.dat" }),
    );
    expect(Buffer.from(await (await fetch(link.url)).arrayBuffer())).toEqual(bytes);
  });

  it("wants exactly one of text and base64, valid Base64, a relative path and a MIME type", async () => {
    const base = { path: "a.txt", content_type: "text/plain" };
    await expectInvalidParams(plugin.invoke("attachment_upload", base), ["text"]);
    await expectInvalidParams(plugin.invoke("attachment_upload", { ...base, text: "x", base64: "eA==" }), [
      "base64",
    ]);
    await expectInvalidParams(plugin.invoke("attachment_upload", { ...base, base64: "not base64!" }), [
      "base64",
    ]);
    await expectInvalidParams(plugin.invoke("attachment_upload", { ...base, path: "../up.txt", text: "x" }), [
      "path",
    ]);
    await expectInvalidParams(plugin.invoke("attachment_upload", { ...base, path: "/abs.txt", text: "x" }), [
      "path",
    ]);
    await expectInvalidParams(
      plugin.invoke("attachment_upload", { ...base, content_type: "text", text: "x" }),
      ["content_type"],
    );
    expect(plugin.reverseCalls).toHaveLength(0);
  });

  it("says when an attachment does not exist", async () => {
    expectToolError(
      await plugin.invoke("attachment_link", { path: "nope.txt" }),
      "attachment not found: nope.txt",
    );
  });
});

describe("scope", () => {
  it("keeps the notes in the tool scope when told to", async () => {
    await plugin.close();
    plugin = await runInProcess(Notebook, { factory: () => new Notebook({ scope: "tool" }) });
    await append("private");
    expect(
      plugin.local!.store.get("tool:local-user:storage", "kv", "notebook/notes/0000000001"),
    ).toBeDefined();
    expect(plugin.local!.store.get(USER, "kv", "notebook/notes/0000000001")).toBeUndefined();
  });

  it("reports that app scope needs an app", async () => {
    await plugin.close();
    plugin = await runInProcess(Notebook, { factory: () => new Notebook({ scope: "app" }) });
    expectToolError(await plugin.invoke("note_append", { text: "x" }), /did not grant storage access.*app/);
  });
});

describe("unknown tools", () => {
  it("answer -32601", async () => {
    await expectRpcError(plugin.invoke("note_edit", {}), JsonRpcErrorCode.METHOD_NOT_FOUND);
  });
});
