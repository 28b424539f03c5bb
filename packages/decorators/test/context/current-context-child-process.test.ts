import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { bundleWithTsup } from "../helpers/build-fixture.js";
import { bundledFixture } from "../helpers/bundled-fixture.js";
import { spawnPlugin } from "../helpers/spawn-plugin.js";

const built = bundledFixture(() =>
  bundleWithTsup(fileURLToPath(new URL("../fixtures/current-context-main.ts", import.meta.url))),
);

test("in a bundled plugin over real pipes, concurrent invokes each read their own context", async () => {
  const plugin = spawnPlugin(built.file);
  try {
    const slow = plugin.request("invoke", {
      tool: "forecast",
      arguments: { city: "Oslo", delay: 200 },
      context: { invoke_id: "slow" },
    });
    const fast = plugin.request("invoke", {
      tool: "forecast",
      arguments: { city: "Rome" },
      context: { invoke_id: "fast" },
    });
    expect((await fast).result).toMatchObject({
      success: true,
      data: { city: "Rome", invokeId: "fast", tool: "forecast", aborted: false },
    });
    expect((await slow).result).toMatchObject({
      success: true,
      data: { city: "Oslo", invokeId: "slow", tool: "forecast", aborted: false },
    });
    // The fast one answered while the slow one still waited: they did overlap.
    expect(plugin.stdoutLines.findIndex((line) => line.includes('"fast"'))).toBeLessThan(
      plugin.stdoutLines.findIndex((line) => line.includes('"slow"')),
    );
    expect(plugin.stderr()).toContain("forecast for Rome");
  } finally {
    await plugin.close();
  }
});
