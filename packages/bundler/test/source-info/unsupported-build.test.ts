import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isBuildError } from "../../src/errors/build-error.js";
import { buildExecutables } from "../../src/pipeline/build-executables.js";
import { tempDir } from "../helpers/temp-dir.js";

const entry = fileURLToPath(new URL("./unsupported-fixture/main.ts", import.meta.url));
const lossyEntry = fileURLToPath(new URL("./lossy-result-fixture/main.ts", import.meta.url));

/** The build error of `buildExecutables` for `entryFile`, as one text (message and the child's stderr). */
async function buildFailure(entryFile: string, name: string): Promise<string> {
  const out = await tempDir(name);
  try {
    const failure = await buildExecutables({
      entry: entryFile,
      outDir: out.path,
      quiet: true,
      binary: false,
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isBuildError(failure)).toBe(true);
    const { message, stderr } = failure as Error & { stderr: string };
    return `${message}\n${stderr}`;
  } finally {
    await out.remove();
  }
}

describe("a plugin with a type the manifest cannot describe", () => {
  it("fails the build with the decorators' message: class, member, type as written, fix", async () => {
    const text = await buildFailure(entry, "unsupported-build");
    // The reference manifest is read from source first (through the register hook's reader).
    expect(text).toContain('executa build failed at "source"');
    expect(text).toContain("UNSUPPORTED_TYPE");
    expect(text).toContain('Scheduler.later, parameter #0 "job"');
    expect(text).toContain("the TypeScript type `() => void` has no faithful manifest form: a function");
    expect(text).toContain('give an explicit type in @Param("job", { type: … })');
  }, 120_000);

  it("a Map in a result fails the build with UNSUPPORTED_TYPE: the analysis loads the ES library that declares it", async () => {
    const text = await buildFailure(lossyEntry, "lossy-result-build");
    expect(text).toContain('executa build failed at "source"');
    expect(text).toContain("UNSUPPORTED_TYPE");
    expect(text).toContain(
      "Tags.count(): the result's TypeScript type `Map<string, number>` (at count().byTag) does not survive JSON: a Map, which JSON does not carry as itself",
    );
    expect(text).toContain("a Map to an object or an array of entries");
  }, 120_000);
});
