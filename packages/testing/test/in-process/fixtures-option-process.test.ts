import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { expectSuccess, type PluginTestClient, runInProcess } from "../../src/index.js";
import { studioDefinition } from "../fixtures/studio-definition.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/mock/studio.jsonl", import.meta.url));

const open: PluginTestClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close({ graceMs: 500 })));
});

type Poster = { url: string; model: string };
type Embedded = { vectors: number[]; model: string };

describe("runInProcess with fixtures", () => {
  it("answers matching reverse calls from a fixture file and the rest from the local providers", async () => {
    const plugin = await runInProcess(studioDefinition(), { fixtures: FIXTURES });
    open.push(plugin);
    const mars = expectSuccess(await plugin.invoke<Poster>("poster", { prompt: "A poster about Mars" }));
    expect(mars).toEqual({ url: "https://mock.cdn/mars-poster.png", model: "mock-dalle-3" });

    const venus = expectSuccess(await plugin.invoke<Poster>("poster", { prompt: "A poster about Venus" }));
    expect(venus.model).toBe("local-stripes-v1");
    const png = await fetch(venus.url);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString("latin1"),
    ).toBe("PNG");

    expect(expectSuccess(await plugin.invoke<Embedded>("embed", { input: "from the fixture" }))).toEqual({
      vectors: [3],
      model: "anna-managed-v1",
    });
    expect(expectSuccess(await plugin.invoke<Embedded>("embed", { input: ["a", "b"] })).vectors).toEqual([
      1536, 1536,
    ]);
  });

  it("takes parsed lines, in front of providers given by the test", async () => {
    const plugin = await runInProcess(studioDefinition(), {
      localProviders: false,
      fixtures: [{ ns: "image", method: "generate", result: { images: [{ url: "https://x/default.png" }] } }],
    });
    open.push(plugin);
    expect(expectSuccess(await plugin.invoke<Poster>("poster", { prompt: "anything" })).url).toBe(
      "https://x/default.png",
    );
    await expect(plugin.invoke("embed", { input: "no provider" })).rejects.toThrow(
      /no embeddings provider on this host/,
    );
  });

  it("refuses a bad fixture file before starting the plugin, naming file and line", async () => {
    const bad = fileURLToPath(new URL("../fixtures/studio-definition.ts", import.meta.url));
    await expect(runInProcess(studioDefinition(), { fixtures: bad })).rejects.toThrow(
      /studio-definition\.ts:1: not JSON/,
    );
  });
});
