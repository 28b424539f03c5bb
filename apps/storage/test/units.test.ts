import {
  DISPLAY_LIMITS,
  InvalidParamsError,
  StorageError,
  StorageErrorCode,
  type ToolError,
} from "@executa/core";
import { describe, expect, it } from "vitest";
import { attachmentBytes } from "../src/attachments/attachment-content.js";
import { attachmentPathProblem, objectPathOf } from "../src/attachments/attachment-path.js";
import { notesMarkdown } from "../src/display.js";
import { idOfKey, noteKey, tagKey } from "../src/notes/keys.js";
import { normalizeTags } from "../src/notes/note.js";
import { scopeFromEnv } from "../src/scope.js";
import { explainStorageFailure } from "../src/storage-errors.js";

describe("keys", () => {
  it("pads ids so key order is id order, and reads them back", () => {
    expect(noteKey(7)).toBe("notebook/notes/0000000007");
    expect(tagKey("work", 12)).toBe("notebook/tags/work/0000000012");
    expect(noteKey(9) < noteKey(10)).toBe(true);
    expect(idOfKey(noteKey(42))).toBe(42);
    expect(idOfKey(tagKey("a", 3))).toBe(3);
    expect(idOfKey("notebook/seq")).toBeUndefined();
  });

  it("normalizes tags: lowercase, no repeats, order kept", () => {
    expect(normalizeTags(["B", "a", "b"])).toEqual(["b", "a"]);
    expect(normalizeTags(undefined)).toEqual([]);
  });
});

describe("attachment content", () => {
  it("encodes text as UTF-8 and decodes standard or URL-safe Base64", () => {
    expect(Buffer.from(attachmentBytes("t", "é", undefined))).toEqual(Buffer.from("é"));
    expect(Buffer.from(attachmentBytes("t", undefined, "aGk="))).toEqual(Buffer.from("hi"));
    expect(Buffer.from(attachmentBytes("t", undefined, "aGk"))).toEqual(Buffer.from("hi"));
    expect(Buffer.from(attachmentBytes("t", undefined, "-_8\n"))).toEqual(Buffer.from([0xfb, 0xff]));
    expect(attachmentBytes("t", "", undefined)).toHaveLength(0);
  });

  it("rejects both, neither and bad Base64 as invalid params", () => {
    expect(() => attachmentBytes("t", undefined, undefined)).toThrow(InvalidParamsError);
    expect(() => attachmentBytes("t", "x", "eA==")).toThrow(/not both/);
    expect(() => attachmentBytes("t", undefined, "a")).toThrow(/not valid Base64/);
    expect(() => attachmentBytes("t", undefined, "ab$d")).toThrow(/not valid Base64/);
  });
});

describe("attachment paths", () => {
  it("accepts relative paths and keeps them under the notebook's prefix", () => {
    expect(attachmentPathProblem("a/b c.txt")).toBeUndefined();
    expect(objectPathOf("a/b.txt")).toBe("notebook/attachments/a/b.txt");
  });

  it("names what is wrong with a bad path", () => {
    expect(attachmentPathProblem("")).toMatch(/empty/);
    expect(attachmentPathProblem("/etc/passwd")).toMatch(/relative/);
    expect(attachmentPathProblem("a/../b")).toMatch(/segments/);
    expect(attachmentPathProblem("a//b")).toMatch(/segments/);
    expect(attachmentPathProblem("a\\b")).toMatch(/separator/);
    expect(attachmentPathProblem("a\nb")).toMatch(/control/);
    expect(attachmentPathProblem("x".repeat(513))).toMatch(/512/);
  });
});

describe("scope from the environment", () => {
  it("defaults to user and accepts user, tool, app", () => {
    expect(scopeFromEnv({})).toBe("user");
    expect(scopeFromEnv({ NOTEBOOK_SCOPE: " tool " })).toBe("tool");
    expect(scopeFromEnv({ NOTEBOOK_SCOPE: "app" })).toBe("app");
    expect(() => scopeFromEnv({ NOTEBOOK_SCOPE: "all" })).toThrow(/use one of user, tool, app/);
  });
});

describe("notes display", () => {
  it("stays within one display block however long the page is", () => {
    const notes = Array.from({ length: 100 }, (_, i) => ({
      id: i + 1,
      text: "long text ".repeat(100),
      tags: ["t1", "t2"],
      created_at: "2026-01-02T03:04:05.000Z",
    }));
    const text = notesMarkdown({ notes, next_cursor: "c" }, undefined);
    expect([...text].length).toBeLessThanOrEqual(DISPLAY_LIMITS.maxBlockChars);
    expect(text).toMatch(/- … \d+ more/);
    expect(text).toContain("**#1** · 2026-01-02 03:04 · `t1` `t2` — long text");
    expect(text).toContain("*More notes follow.*");
  });
});

describe("storage failures explained", () => {
  it("keeps the MCP-side cause and fix of a refusal when served over MCP, and speaks of Executa otherwise", () => {
    const refusal =
      "storage/set is unavailable when serving MCP: MCP clients provide no storage or files. Fix: …";
    const overMcp = new StorageError(StorageErrorCode.NOT_GRANTED, refusal, {
      reason: "not_negotiated",
      protocol: "mcp",
    });
    expect((explainStorageFailure("note_add", overMcp) as ToolError).message).toBe(`note_add: ${refusal}`);
    const overExecuta = new StorageError(StorageErrorCode.NOT_GRANTED, "needs 2.0", {
      reason: "not_negotiated",
    });
    expect((explainStorageFailure("note_add", overExecuta) as ToolError).message).toMatch(
      /did not negotiate Executa protocol 2\.0/,
    );
  });
});
