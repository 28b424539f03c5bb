import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { manifestOf } from "@executa/decorators";
import { expect, test } from "vitest";
import { E2ePlugin } from "../fixtures/e2e-plugin.js";
import { bundleWithTsup } from "../helpers/build-fixture.js";
import { bundledFixtures } from "../helpers/bundled-fixture.js";
import { spawnPlugin } from "../helpers/spawn-plugin.js";

const entry = fileURLToPath(new URL("../fixtures/e2e-main.ts", import.meta.url));

const [minified, plain] = bundledFixtures(
  () => bundleWithTsup(entry, { minify: true }),
  () => bundleWithTsup(entry),
);

test("the manifest from the TypeScript source equals the one a minified bundle answers", async () => {
  const [minifiedSize, plainSize] = await Promise.all([
    readFile(minified.file).then((code) => code.length),
    readFile(plain.file).then((code) => code.length),
  ]);
  // The bundle really is minified, so renamed locals could have broken names the manifest relies on.
  expect(minifiedSize).toBeLessThan(plainSize * 0.8);

  const plugin = spawnPlugin(minified.file);
  try {
    const frame = await plugin.request("describe");
    expect(frame.result).toEqual(manifestOf(E2ePlugin));
    const invoked = await plugin.request("invoke", {
      tool: "forecast",
      arguments: { location: '{"city":"Rome"}', days: 1 },
    });
    expect(invoked.result).toMatchObject({ success: true, data: { city: "Rome", locationIsInstance: true } });
  } finally {
    await plugin.close();
  }
});
