import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { expectSuccess, type PluginTestClient, runBinary } from "../../src/index.js";

const mockFile = (name: string) => fileURLToPath(new URL(`../fixtures/mock/${name}`, import.meta.url));

const open: PluginTestClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close({ graceMs: 500 })));
});

describe("runBinary with fixtures", () => {
  it("answers the child's reverse calls from the fixture file, then from the local providers", async () => {
    const plugin = await runBinary(process.execPath, [mockFile("studio-plugin.mjs")], {
      fixtures: mockFile("studio.jsonl"),
    });
    open.push(plugin);
    const mars = expectSuccess(await plugin.invoke<{ url: string }>("poster", { prompt: "Mars at night" }));
    expect(mars.url).toBe("https://mock.cdn/mars-poster.png");
    const venus = expectSuccess(
      await plugin.invoke<{ url: string; model: string }>("poster", { prompt: "Venus" }),
    );
    expect(venus.model).toBe("local-stripes-v1");
    expect((await fetch(venus.url)).headers.get("content-type")).toBe("image/png");
  });
});
