import { EmbeddingsErrorCode } from "@executa/core";
import {
  expectInvalidParams,
  expectSuccess,
  expectToolError,
  type PluginTestClient,
  runInProcess,
} from "@executa/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { noteKey } from "../src/notes/note-id.js";
import { encodeVector } from "../src/notes/vector-codec.js";
import { NotesSearch } from "../src/notes-search.js";
import { TOOL_NAMESPACE } from "./helpers/samples.js";

// In-process against the local host: embeddings by feature hashing (texts that share
// words and word pieces are near), notes in its SQLite store.

interface Match {
  id: string;
  score: number;
  text: string;
}
interface SearchData {
  query: string;
  count: number;
  results: Match[];
  searched: number;
  skipped: number;
  _display: { blocks: { type: string; text: string }[] };
}

const NOTES = {
  groceries: "Groceries to buy on Saturday: milk, eggs, bread and butter.",
  budget: "Quarterly budget review with finance: travel costs are over plan.",
  hiking: "Packing list for the hiking trip: tent, boots, rain jacket, water filter.",
  dentist: "Dentist appointment moved to Thursday at 9 am.",
};

let plugin: PluginTestClient;
beforeEach(async () => {
  plugin = await runInProcess(NotesSearch);
});
afterEach(() => plugin?.close());

const add = (id: string, text: string) =>
  expectSuccess(
    plugin.invoke<{ id: string; dimensions: number; model: string; replaced: boolean }>("note_add", {
      id,
      text,
    }),
  );
const search = async (query: string, limit?: number) =>
  expectSuccess(
    await plugin.invoke<SearchData>("note_search", limit === undefined ? { query } : { query, limit }),
  );
const addAll = async () => {
  for (const [id, text] of Object.entries(NOTES)) await add(id, text);
};
const stored = (id: string) => plugin.local!.store.get(TOOL_NAMESPACE, "kv", noteKey(id));

describe("note_add", () => {
  it("embeds the text with the host and stores text and vector in the plugin's storage", async () => {
    expect(await add("groceries", NOTES.groceries)).toEqual({
      id: "groceries",
      dimensions: 1536,
      model: "anna-managed-v1",
      replaced: false,
    });
    const value = JSON.parse(stored("groceries")!.valueJson!);
    expect(value).toMatchObject({
      id: "groceries",
      text: NOTES.groceries,
      model: "anna-managed-v1",
      dimensions: 1536,
      added_at: expect.any(String),
    });
    expect(Buffer.from(value.vector, "base64")).toHaveLength(1536 * 4);
    expect(plugin.reverseCalls.map((call) => call.method)).toEqual([
      "embeddings/create",
      "storage/get",
      "storage/set",
    ]);
  });

  it("replaces the note with the same id, and search finds the new text", async () => {
    await add("n1", NOTES.dentist);
    expect((await add("n1", NOTES.hiking)).replaced).toBe(true);
    const data = await search("tent and boots for hiking");
    expect(data.results).toEqual([{ id: "n1", score: expect.any(Number), text: NOTES.hiking }]);
  });

  it("rejects empty or blank text and bad ids with -32602, before any host call", async () => {
    await expectInvalidParams(plugin.invoke("note_add", { id: "a", text: "" }), ["text"]);
    await expectInvalidParams(plugin.invoke("note_add", { id: "a", text: " \t" }), ["text"]);
    await expectInvalidParams(plugin.invoke("note_add", { id: "a", text: "x".repeat(8_001) }), ["text"]);
    await expectInvalidParams(plugin.invoke("note_add", { id: "a" }), ["text"]);
    for (const id of ["", "../a", "a/b", "-a", "x".repeat(65)]) {
      await expectInvalidParams(plugin.invoke("note_add", { id, text: "x" }), ["id"]);
    }
    expect(plugin.reverseCalls).toHaveLength(0);
  });
});

describe("note_search", () => {
  it("ranks the note closest in meaning first, scores descending", async () => {
    await addAll();
    const data = await search("buy milk and eggs");
    expect(data.results[0]?.id).toBe("groceries");
    expect(data).toMatchObject({ query: "buy milk and eggs", count: 4, searched: 4, skipped: 0 });
    const scores = data.results.map((match) => match.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(scores[0]).toBeGreaterThan(scores[1]! + 0.05);
    for (const score of scores) expect(Math.abs(score)).toBeLessThanOrEqual(1);

    expect((await search("finance review of the budget")).results[0]?.id).toBe("budget");
    expect((await search("a jacket for the rain on the trip")).results[0]?.id).toBe("hiking");
    expect((await search("when is the dentist")).results[0]?.id).toBe("dentist");
  });

  it("answers at most limit notes (default 5) with a display list", async () => {
    await addAll();
    for (let i = 1; i <= 3; i++) await add(`extra-${i}`, `Extra note number ${i} about nothing much.`);
    expect((await search("notes")).count).toBe(5);
    const two = await search("milk", 2);
    expect(two.results).toHaveLength(2);
    expect(two._display.blocks[0]?.text).toMatch(
      /^\*\*2 notes\*\* for \*milk\*\n1\. `\d\.\d{3}` \*\*groceries\*\*/,
    );
  });

  it("answers no results when there are no notes", async () => {
    const data = await search("anything");
    expect(data).toMatchObject({ count: 0, results: [], searched: 0, skipped: 0 });
    expect(data._display.blocks[0]?.text).toBe("No notes match *anything*.");
  });

  it("skips stored entries it cannot compare: another model or size, or not a note", async () => {
    await addAll();
    const foreign = (model: string, vector: number[]) => ({
      id: model,
      text: `milk, eggs, bread and butter, embedded by ${model}`,
      model,
      dimensions: vector.length,
      vector: encodeVector(vector),
      added_at: "2026-01-01T00:00:00.000Z",
    });
    const sameSize = Array.from({ length: 1536 }, (_, i) => (i === 0 ? 1 : 0));
    for (const [id, value] of [
      ["small-model", foreign("small-model", [1, 0, 0])],
      ["other-model", foreign("other-model", sameSize)],
      ["junk", { hello: "world" }],
    ] as const) {
      const valueJson = JSON.stringify(value);
      plugin.local!.store.put(TOOL_NAMESPACE, "kv", noteKey(id), { valueJson, sizeBytes: valueJson.length });
    }
    const data = await search("milk", 20);
    expect(data).toMatchObject({ count: 4, searched: 7, skipped: 3 });
    expect(data.results.map((match) => match.id).sort()).toEqual(Object.keys(NOTES).sort());
  });

  it("rejects an empty query and limit out of 1-20 with -32602, before any host call", async () => {
    await expectInvalidParams(plugin.invoke("note_search", { query: "" }), ["query"]);
    await expectInvalidParams(plugin.invoke("note_search", { query: "   " }), ["query"]);
    await expectInvalidParams(plugin.invoke("note_search", {}), ["query"]);
    for (const limit of [0, 21, 1.5, -3]) {
      await expectInvalidParams(plugin.invoke("note_search", { query: "milk", limit }), ["limit"]);
    }
    expect(plugin.reverseCalls).toHaveLength(0);
  });
});

describe("note_remove", () => {
  it("removes the note, which search no longer finds", async () => {
    await addAll();
    expect(expectSuccess(await plugin.invoke("note_remove", { id: "groceries" }))).toEqual({
      id: "groceries",
      removed: true,
    });
    expect(stored("groceries")).toBeUndefined();
    const data = await search("buy milk and eggs");
    expect(data.count).toBe(3);
    expect(data.results.map((match) => match.id)).not.toContain("groceries");
  });

  it("answers a tool error for an unknown id, and -32602 for a malformed one", async () => {
    expectToolError(await plugin.invoke("note_remove", { id: "nope" }), 'note "nope" not found');
    await expectInvalidParams(plugin.invoke("note_remove", { id: "a b" }), ["id"]);
    await expectInvalidParams(plugin.invoke("note_remove", {}), ["id"]);
  });
});

describe("hosts that cannot help", () => {
  it("a host that does not grant embeddings gets a clear tool error", async () => {
    const client = await runInProcess(NotesSearch, { grantedCapabilities: ["aps.kv"] });
    try {
      const result = await client.invoke("note_add", { id: "a", text: "x" });
      expectToolError(result, /^note_add: the host did not grant embeddings \(llm\.embed\): /);
      expect(result).toMatchObject({ data: { code: EmbeddingsErrorCode.NOT_GRANTED } });
      expectToolError(
        await client.invoke("note_search", { query: "x" }),
        /^note_search: the host did not grant embeddings/,
      );
    } finally {
      await client.close();
    }
  });

  it("a host that does not grant storage gets a clear tool error", async () => {
    const client = await runInProcess(NotesSearch, { grantedCapabilities: ["llm.embed"] });
    try {
      expectToolError(
        await client.invoke("note_add", { id: "a", text: "x" }),
        /^note_add: the host did not grant storage \(aps\.kv\): /,
      );
      expectToolError(
        await client.invoke("note_remove", { id: "a" }),
        /^note_remove: the host did not grant storage/,
      );
    } finally {
      await client.close();
    }
  });

  it("a host answering an empty embedding gets a tool error, and nothing is stored", async () => {
    const embeddings = { handle: () => ({ object: "list", data: [{ index: 0, embedding: [] }] }) };
    const client = await runInProcess(NotesSearch, { providers: { embeddings } });
    try {
      expectToolError(
        await client.invoke("note_add", { id: "a", text: "x" }),
        "the host answered an embedding that is not a non-empty list of numbers",
      );
      expect(client.reverseCalls.map((call) => call.method)).toEqual(["embeddings/create"]);
    } finally {
      await client.close();
    }
  });

  it("a v1 host gets a clear tool error, with no call sent", async () => {
    const client = await runInProcess(NotesSearch, { protocolVersion: "1.1" });
    try {
      expectToolError(
        await client.invoke("note_search", { query: "x" }),
        /did not negotiate Executa protocol 2\.0/,
      );
      expectToolError(
        await client.invoke("summarize", { text: "x" }),
        /did not negotiate Executa protocol 2\.0/,
      );
      expect(client.reverseCalls).toHaveLength(0);
    } finally {
      await client.close();
    }
  });
});
