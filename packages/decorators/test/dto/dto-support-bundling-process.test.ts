import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { bundleWithTsup } from "../helpers/build-fixture.js";
import { bundledFixtures } from "../helpers/bundled-fixture.js";
import { spawnPlugin } from "../helpers/spawn-plugin.js";

// DTO support (class-validator, class-transformer) is plugged in by @Args() / @Field(), so
// a plugin without DTOs bundles neither library, and one with DTOs bundles both.
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
// Class names the bundle keeps (keepNames) from each library's core.
const VALIDATOR = "ValidationExecutor";
const TRANSFORMER = "TransformOperationExecutor";

const [withoutDto, withDto] = bundledFixtures(
  () => bundleWithTsup(fixture("no-dto-main.ts"), { minify: true }),
  () => bundleWithTsup(fixture("e2e-main.ts"), { minify: true }),
);

test("a plugin without @Args or @Field bundles neither class-validator nor class-transformer", async () => {
  const code = await readFile(withoutDto.file, "utf8");
  expect(code).not.toContain(VALIDATOR);
  expect(code).not.toContain(TRANSFORMER);

  const plugin = spawnPlugin(withoutDto.file);
  try {
    const invoked = await plugin.request("invoke", {
      tool: "repeat",
      arguments: { text: "ab", times: "2", loud: true },
    });
    expect(invoked.result).toMatchObject({ success: true, data: "ABAB" });
  } finally {
    await plugin.close();
  }
});

test("a plugin with DTOs bundles both and validates through them", async () => {
  const code = await readFile(withDto.file, "utf8");
  expect(code).toContain(VALIDATOR);
  expect(code).toContain(TRANSFORMER);

  const plugin = spawnPlugin(withDto.file);
  try {
    const invoked = await plugin.request("invoke", {
      tool: "forecast",
      arguments: { location: { city: "" }, days: 2 },
    });
    expect(invoked.error?.code).toBe(-32602);
    // class-validator's own wording for @IsNotEmpty(), which only class-validator checks.
    expect(JSON.stringify(invoked.error?.data)).toContain(
      `"path":"location.city","message":"should not be empty"`,
    );
  } finally {
    await plugin.close();
  }
});
