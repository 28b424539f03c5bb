import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, it } from "vitest";
import { ExecutaBuildError } from "../../src/errors/build-error.js";
import { asBuildFailure } from "../../src/errors/target-unavailable.js";
import { RuntimeFailure } from "../../src/runtime/runtime-failure.js";
import * as RUNTIME_TABLE from "../../src/runtime/runtime-table.js";
import { RUNTIME_NAMES, RUNTIMES, type RuntimeName, runtimeFor } from "../../src/runtime/runtimes.js";

const source = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../../src/${path}`, import.meta.url)), "utf8");

// Adding a runtime is its module and its line in runtime-table.ts: every other name comes from there.
describe("the runtime table", () => {
  it("gives the runtime names and each runtime's name", () => {
    expect(RUNTIME_NAMES).toEqual(Object.keys(RUNTIME_TABLE));
    expect(RUNTIME_NAMES).toEqual(expect.arrayContaining(["node", "bun"]));
    for (const name of RUNTIME_NAMES) {
      expect(RUNTIMES[name]).toBeDefined();
      expect(runtimeFor("linux-x86_64", name).name).toBe(name);
    }
    expectTypeOf<RuntimeName>().toEqualTypeOf<keyof typeof RUNTIME_TABLE>();
    expectTypeOf<keyof typeof RUNTIMES>().toEqualTypeOf<(typeof RUNTIME_NAMES)[number]>();
  });

  it("is the only place that names runtimes: no module lists them or gives itself a name", () => {
    const listing = /["']node["']\s*\|\s*["']bun["']|\[\s*["']node["'],\s*["']bun["']\s*\]/;
    for (const file of ["runtime/runtime.ts", "errors/build-error.ts", "../../cli/src/commands/build.ts"]) {
      expect(source(file), file).not.toMatch(listing);
    }
    for (const file of ["runtime/node-sea.ts", "runtime/bun.ts", "runtime/node-binaries.ts"]) {
      expect(source(file), file).not.toMatch(/name: "|"(node|bun)",\s*$/m);
    }
  });

  it("names the runtime in the build error a runtime's own failure becomes", () => {
    const cause = new Error("404");
    const failure = new RuntimeFailure("DOWNLOAD_INTEGRITY", "checksum differs", { cause });
    const error = asBuildFailure(failure, "darwin-arm64", "node");
    expect(error).toBeInstanceOf(ExecutaBuildError);
    expect(error).toMatchObject({
      code: "DOWNLOAD_INTEGRITY",
      message: "checksum differs",
      details: { platform: "darwin-arm64", runtime: "node" },
      cause,
    });
    const other = new Error("not a runtime's failure");
    expect(asBuildFailure(other, "darwin-arm64", "bun")).toBe(other);
  });
});
