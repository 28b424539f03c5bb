import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBuildError } from "../../src/errors/build-error.js";
import { buildExecutables } from "../../src/pipeline/build-executables.js";
import { tempDir } from "../helpers/temp-dir.js";

// A failed build leaves the last good output as it was: set aside while building, put
// back on failure (a type the manifest cannot describe, a bundling error), dropped on success.
const good = fileURLToPath(new URL("../source-info/zero-annotation-fixture/main.ts", import.meta.url));
const unsupported = fileURLToPath(new URL("../source-info/unsupported-fixture/main.ts", import.meta.url));

/** Every file of `dir` with its bytes and mtime. */
function snapshot(dir: string): Record<string, { bytes: string; mtimeMs: number }> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((name) => statSync(join(dir, name)).isFile())
      .sort()
      .map((name) => [
        name,
        { bytes: readFileSync(join(dir, name), "base64"), mtimeMs: statSync(join(dir, name)).mtimeMs },
      ]),
  );
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("a failed build keeps the previous output", () => {
  let work: Awaited<ReturnType<typeof tempDir>>;
  let outDir: string;
  let before: ReturnType<typeof snapshot>;
  beforeAll(async () => {
    work = await tempDir("previous-output");
    outDir = join(work.path, "dist");
    await buildExecutables({ entry: good, outDir, quiet: true, binary: false });
    before = snapshot(outDir);
  }, 180_000);
  afterAll(() => work?.remove());

  it("wrote the first build (the premise)", () => {
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining(["zero-annotation-fixture.cjs", "manifest.json", "executa.json"]),
    );
  });

  it("a type the manifest cannot describe fails the build and leaves dist/ byte for byte, mtimes included", async () => {
    const error = await failure(buildExecutables({ entry: unsupported, outDir, quiet: true, binary: false }));
    expect(isBuildError(error)).toBe(true);
    expect((error as Error).message).toContain('executa build failed at "source"');
    expect(snapshot(outDir)).toEqual(before);
    expect(readdirSync(work.path)).toEqual(["dist"]);
  }, 180_000);

  it("a bundling error does too", async () => {
    const broken = join(work.path, "broken.ts");
    writeFileSync(broken, "export const = ;\n");
    const error = await failure(buildExecutables({ entry: broken, outDir, quiet: true, binary: false }));
    expect(isBuildError(error)).toBe(true);
    expect(snapshot(outDir)).toEqual(before);
  }, 180_000);

  it("a build killed before it ended leaves the last good output aside: the next build keeps it", async () => {
    renameSync(outDir, `${outDir}.previous`);
    mkdirSync(outDir);
    writeFileSync(join(outDir, "partial.cjs"), "// cut short\n");
    const error = await failure(buildExecutables({ entry: unsupported, outDir, quiet: true, binary: false }));
    expect(isBuildError(error)).toBe(true);
    expect(snapshot(outDir)).toEqual(before);
    expect(readdirSync(work.path).sort()).toEqual(["broken.ts", "dist"]);
  }, 180_000);
});
