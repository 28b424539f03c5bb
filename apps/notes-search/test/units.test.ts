import {
  DISPLAY_LIMITS,
  EmbeddingsError,
  EmbeddingsErrorCode,
  JsonRpcErrorCode,
  SamplingError,
  SamplingErrorCode,
  StorageError,
  StorageErrorCode,
  ToolError,
} from "@executa/core";
import { describe, expect, it } from "vitest";
import { searchMarkdown, summaryMarkdown } from "../src/display.js";
import { explainHostFailure } from "../src/host-errors.js";
import { cosineSimilarity } from "../src/notes/cosine.js";
import { NOTE_ID_PATTERN } from "../src/notes/note-id.js";
import { rankNotes } from "../src/notes/rank.js";
import { type IndexedNote, readStoredNote } from "../src/notes/stored-note.js";
import { decodeVector, encodeVector } from "../src/notes/vector-codec.js";
import { MAX_POINT_CHARS, MAX_POINTS, MAX_TITLE_CHARS } from "../src/summary/summary-dto.js";

const note = (id: string, vector: number[], model: string | null = null): IndexedNote => ({
  id,
  text: `text of ${id}`,
  model,
  vector: Float32Array.from(vector),
  added_at: "",
});

describe("cosineSimilarity", () => {
  it("is 1 for the same direction, -1 for the opposite, 0 for orthogonal or zero vectors", () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 0], [-3, 0])).toBeCloseTo(-1, 12);
    expect(cosineSimilarity([1, 0], [0, 5])).toBe(0);
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
    expect(cosineSimilarity([1, 1], [1, 0])).toBeCloseTo(Math.SQRT1_2, 12);
  });

  it("refuses vectors of different lengths", () => {
    expect(() => cosineSimilarity([1, 2], [1, 2, 3])).toThrow(RangeError);
  });
});

describe("vector codec", () => {
  it("round-trips float32 values through Base64", () => {
    const vector = [0.5, -0.25, 1 / 3, 0, -1e-7, 123.456];
    const decoded = decodeVector(encodeVector(vector), vector.length)!;
    expect(Array.from(decoded)).toEqual(vector.map((value) => Math.fround(value)));
    expect(Buffer.from(encodeVector(vector), "base64")).toHaveLength(vector.length * 4);
  });

  it("answers undefined for a length that does not match", () => {
    expect(decodeVector(encodeVector([1, 2, 3]), 4)).toBeUndefined();
    expect(decodeVector("", 0)).toBeUndefined();
  });
});

describe("readStoredNote", () => {
  it("reads what the plugin stores and refuses anything else", () => {
    const stored = {
      id: "a",
      text: "hello",
      model: "m",
      dimensions: 2,
      vector: encodeVector([0.6, 0.8]),
      added_at: "2026-12-04T00:00:00.000Z",
    };
    expect(readStoredNote(stored)).toMatchObject({ id: "a", text: "hello", model: "m" });
    expect(Array.from(readStoredNote(stored)!.vector)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(readStoredNote({ ...stored, dimensions: 3 })).toBeUndefined();
    expect(readStoredNote({ ...stored, vector: 5 })).toBeUndefined();
    expect(readStoredNote({ ...stored, text: undefined })).toBeUndefined();
    expect(readStoredNote(null)).toBeUndefined();
    expect(readStoredNote("note")).toBeUndefined();
  });
});

describe("rankNotes", () => {
  const query = { vector: [1, 0], model: "m" };

  it("orders by score, breaks ties by id and keeps limit", () => {
    const notes = [note("c", [1, 0]), note("b", [0, 1]), note("a", [0, 1]), note("d", [1, 1], "m")];
    const ranking = rankNotes(query, notes, 3);
    expect(ranking.matches.map((match) => [match.id, match.score])).toEqual([
      ["c", 1],
      ["d", Math.round(Math.SQRT1_2 * 10_000) / 10_000],
      ["a", 0],
    ]);
    expect(ranking.skipped).toBe(0);
    expect(rankNotes(query, [], 5)).toEqual({ matches: [], skipped: 0 });
  });

  it("skips notes of another size or another named model", () => {
    const notes = [note("same", [1, 0], "m"), note("size", [1, 0, 0], "m"), note("model", [1, 0], "other")];
    const ranking = rankNotes(query, notes, 5);
    expect(ranking.matches.map((match) => match.id)).toEqual(["same"]);
    expect(ranking.skipped).toBe(2);
    // A query whose model the host did not name is compared with every note of its size.
    expect(rankNotes({ vector: [1, 0], model: null }, notes, 5).skipped).toBe(1);
  });
});

describe("NOTE_ID_PATTERN", () => {
  it("takes simple names and refuses paths, blanks and long ids", () => {
    for (const id of ["a", "2026-12-04", "groceries.list", "A_b-c"])
      expect(NOTE_ID_PATTERN.test(id)).toBe(true);
    for (const id of ["", ".hidden", "a/b", "../x", "a b", "x".repeat(65), "é"]) {
      expect(NOTE_ID_PATTERN.test(id)).toBe(false);
    }
  });
});

describe("display", () => {
  it("keeps the largest summary within one display block", () => {
    const text = summaryMarkdown({
      title: "T".repeat(MAX_TITLE_CHARS),
      points: Array.from({ length: MAX_POINTS }, (_, i) => `${i}`.repeat(MAX_POINT_CHARS)),
      sentiment: "mixed",
    });
    expect(text.length).toBeLessThanOrEqual(DISPLAY_LIMITS.maxBlockChars);
    expect(text).toMatch(/\n- … 1 more point\n\n🤔 mixed$/);
  });

  it("escapes Markdown in titles, points, ids and note text", () => {
    expect(summaryMarkdown({ title: "*bold*", points: ["[link](x)"], sentiment: "neutral" })).toBe(
      "**\\*bold\\***\n\n- \\[link\\]\\(x\\)\n\n😐 neutral",
    );
    expect(searchMarkdown("q", [{ id: "a_b", score: 0.5, text: "# heading\nsecond line" }])).toBe(
      "**1 note** for *q*\n1. `0.500` **a\\_b** — \\# heading …",
    );
  });
});

describe("explainHostFailure", () => {
  const explain = (error: unknown) => explainHostFailure("note_add", error);

  it("turns each host failure into a tool error with the host's code", () => {
    const cases: [Error, RegExp, number][] = [
      [
        new EmbeddingsError(EmbeddingsErrorCode.MAX_TOKENS, "too long"),
        /text is too long for the host's embedding model/,
        EmbeddingsErrorCode.MAX_TOKENS,
      ],
      [
        new EmbeddingsError(EmbeddingsErrorCode.QUOTA_EXCEEDED, "pool"),
        /the embeddings quota is used up \(pool\)/,
        EmbeddingsErrorCode.QUOTA_EXCEEDED,
      ],
      [
        new EmbeddingsError(EmbeddingsErrorCode.TIMEOUT, "slow"),
        /the host's embeddings did not answer in time/,
        EmbeddingsErrorCode.TIMEOUT,
      ],
      [
        new StorageError(StorageErrorCode.VALUE_TOO_LARGE, "1 MB"),
        /the note is too large for the host's storage/,
        StorageErrorCode.VALUE_TOO_LARGE,
      ],
      [
        new StorageError(JsonRpcErrorCode.METHOD_NOT_FOUND, "no"),
        /this host does not implement storage/,
        JsonRpcErrorCode.METHOD_NOT_FOUND,
      ],
      [
        new SamplingError(SamplingErrorCode.MAX_CALLS_EXCEEDED, "8"),
        /used up the model calls or tokens/,
        SamplingErrorCode.MAX_CALLS_EXCEEDED,
      ],
      [
        new SamplingError(SamplingErrorCode.UNSUPPORTED_RESPONSE_FORMAT, "no schema"),
        /cannot answer in a JSON schema/,
        SamplingErrorCode.UNSUPPORTED_RESPONSE_FORMAT,
      ],
      [
        new SamplingError(SamplingErrorCode.PROVIDER_ERROR, "upstream 502"),
        /sampling error -32003: upstream 502/,
        SamplingErrorCode.PROVIDER_ERROR,
      ],
    ];
    for (const [error, message, code] of cases) {
      const explained = explain(error) as ToolError;
      expect(explained).toBeInstanceOf(ToolError);
      expect(explained.message).toMatch(/^note_add: /);
      expect(explained.message).toMatch(message);
      expect(explained.data).toEqual({ code });
    }
  });

  it("passes other errors through unchanged", () => {
    const error = new TypeError("bug");
    expect(explain(error)).toBe(error);
  });

  it("keeps the MCP-side cause and fix of a refusal when served over MCP, and speaks of Executa otherwise", () => {
    const refusal =
      "storage/set is unavailable when serving MCP: MCP clients provide no storage or files. Fix: …";
    const overMcp = new StorageError(StorageErrorCode.NOT_GRANTED, refusal, {
      reason: "not_negotiated",
      protocol: "mcp",
    });
    expect((explain(overMcp) as ToolError).message).toBe(`note_add: ${refusal}`);
    const overExecuta = new StorageError(StorageErrorCode.NOT_GRANTED, "needs 2.0", {
      reason: "not_negotiated",
    });
    expect((explain(overExecuta) as ToolError).message).toMatch(/did not negotiate Executa protocol 2\.0/);
  });
});
