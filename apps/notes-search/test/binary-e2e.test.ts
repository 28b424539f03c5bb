import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadFixtures } from "@executa/host/local";
import { expectSuccess, expectToolError, type PluginTestClient, runBinary } from "@executa/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelAnswer, RETROSPECTIVE, SUMMARY_FIXTURES } from "./helpers/samples.js";

// The built single executable over real pipes (`pnpm --filter @executa-apps/notes-search build`),
// against the local host: feature-hashing embeddings, SQLite storage, and sampling
// answered from mock fixtures.
const binary = fileURLToPath(new URL("../dist/notes-search", import.meta.url));

let plugin: PluginTestClient;
beforeAll(async () => {
  if (!existsSync(binary)) {
    throw new Error(`${binary} is missing: run \`pnpm --filter @executa-apps/notes-search build\` first`);
  }
  // The app's fixtures, and one answer outside the summary schema.
  const offSchema = JSON.stringify({ title: "Minutes", points: ["Agreed."], sentiment: "ecstatic" });
  plugin = await runBinary(binary, [], {
    fixtures: [...loadFixtures(SUMMARY_FIXTURES), modelAnswer("The minutes", offSchema)],
  });
});
afterAll(() => plugin?.close());

describe("the built notes-search binary", () => {
  it("declares the host capabilities it uses", () => {
    expect(plugin.negotiated?.protocolVersion).toBe("2.0");
    expect(plugin.manifest?.name).toBe("notes-search");
    expect(plugin.manifest?.host_capabilities).toEqual(["llm.sample", "llm.embed", "aps.kv"]);
    expect(plugin.manifest?.tools.map((tool) => tool.name)).toEqual([
      "summarize",
      "note_add",
      "note_search",
      "note_remove",
    ]);
  });

  it("summarizes through structured sampling, and refuses an answer outside the schema", async () => {
    const summary = expectSuccess(
      await plugin.invoke<{ title: string; points: string[]; sentiment: string }>("summarize", {
        text: RETROSPECTIVE,
        max_points: 2,
      }),
    );
    expect(summary).toMatchObject({ title: "Sprint 42 retrospective", sentiment: "positive" });
    expect(summary.points).toHaveLength(2);
    expectToolError(
      await plugin.invoke("summarize", { text: "The minutes of Monday's meeting." }),
      /^summarize: the model's answer does not fit the summary schema after 2 attempts: sentiment: /,
    );
  });

  it("adds, finds and removes notes", async () => {
    const notes = {
      groceries: "Groceries to buy on Saturday: milk, eggs, bread and butter.",
      budget: "Quarterly budget review with finance: travel costs are over plan.",
      hiking: "Packing list for the hiking trip: tent, boots, rain jacket, water filter.",
    };
    for (const [id, text] of Object.entries(notes)) {
      expectSuccess(await plugin.invoke("note_add", { id, text }));
    }
    const found = expectSuccess(
      await plugin.invoke<{ results: { id: string }[] }>("note_search", { query: "eggs and milk", limit: 2 }),
    );
    expect(found.results.map((match) => match.id)[0]).toBe("groceries");
    expect(found.results).toHaveLength(2);
    expectSuccess(await plugin.invoke("note_remove", { id: "groceries" }));
    expectToolError(await plugin.invoke("note_remove", { id: "groceries" }), 'note "groceries" not found');
    const after = expectSuccess(
      await plugin.invoke<{ results: { id: string }[] }>("note_search", { query: "eggs and milk" }),
    );
    expect(after.results.map((match) => match.id).sort()).toEqual(["budget", "hiking"]);
  });
});
