import { mkdir, realpath, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBuildError } from "../../src/errors/build-error.js";
import { buildExecutables } from "../../src/pipeline/build-executables.js";
import { tempDir } from "../helpers/temp-dir.js";

// One version: a project whose @Plugin names no version builds a manifest with
// package.json's; one whose @Plugin names another version than package.json fails.
const installed = (name: string) =>
  fileURLToPath(new URL(`../../node_modules/@executa/${name}`, import.meta.url));

const plugin = (options: string) => `
import { Plugin, serve, Tool } from "@executa/decorators";

/** Says hello. */
@Plugin({ name: "one-version"${options} })
export class OneVersion {
  /** Greets someone. */
  @Tool()
  greet(name: string) {
    return { text: \`hello \${name}\` };
  }
}

serve(OneVersion);
`;

describe("the plugin's one version", () => {
  let project: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    project = await tempDir("one-version");
    await mkdir(join(project.path, "node_modules/@executa"), { recursive: true });
    for (const name of ["core", "decorators"]) {
      await symlink(
        await realpath(installed(name)),
        join(project.path, "node_modules/@executa", name),
        "dir",
      );
    }
    await writeFile(
      join(project.path, "package.json"),
      JSON.stringify({ name: "one-version", version: "3.1.4" }),
    );
    await writeFile(
      join(project.path, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { experimentalDecorators: true, emitDecoratorMetadata: true, strict: true },
      }),
    );
  });
  afterAll(() => project?.remove());

  const build = async (source: string) => {
    const entry = join(project.path, "main.ts");
    await writeFile(entry, source);
    return buildExecutables({
      entry,
      outDir: join(project.path, "dist"),
      binary: false,
      projectDir: project.path,
      tsconfig: join(project.path, "tsconfig.json"),
      quiet: true,
    });
  };

  it("takes package.json's version when @Plugin names none", async () => {
    const result = await build(plugin(""));
    expect(result.manifest.version).toBe("3.1.4");
  }, 120_000);

  it("fails naming both when @Plugin names another", async () => {
    const error = await build(plugin(', version: "3.0.0"')).catch((caught: unknown) => caught);
    expect(isBuildError(error, "VERSION_MISMATCH")).toBe(true);
    expect((error as Error).message).toContain(
      "package.json says 3.1.4, the plugin's manifest (@Plugin({ version })) says 3.0.0",
    );
  }, 120_000);
});
