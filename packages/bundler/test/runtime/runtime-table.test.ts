import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { RuntimeName } from "../../src/runtime/runtime.js";
import { RUNTIME_NAMES, RUNTIMES } from "../../src/runtime/runtimes.js";

const source = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../../src/${path}`, import.meta.url)), "utf8");

// Adding a runtime is its module, its name and its table line in runtimes.ts: every other name comes from there.
describe("the runtime table", () => {
  it("gives the runtime names, in table order, and each runtime's own name", () => {
    expect(RUNTIME_NAMES).toEqual(Object.keys(RUNTIMES));
    for (const name of RUNTIME_NAMES) expect(RUNTIMES[name].name).toBe(name);
    expectTypeOf<RuntimeName>().toEqualTypeOf<keyof typeof RUNTIMES>();
    expectTypeOf<keyof typeof RUNTIMES>().toEqualTypeOf<(typeof RUNTIME_NAMES)[number]>();
  });

  it("is the only place that lists runtime names", () => {
    const listing = /["']node["']\s*\|\s*["']bun["']|\[\s*["']node["'],\s*["']bun["']\s*\]/;
    for (const file of ["runtime/runtime.ts", "errors/build-error.ts", "../../cli/src/commands/build.ts"]) {
      expect(source(file), file).not.toMatch(listing);
    }
  });
});
