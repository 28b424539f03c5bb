import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../check-packages.mjs", import.meta.url));

interface Run {
  code: number;
  output: string;
}

/** Runs the checker as CI does, on the given package folders. */
async function check(...dirs: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SCRIPT, ...dirs]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

const README = "# @fixture/answer\n\nSee [the guide](https://example.github.io/answer/guide/start.html).\n";

/** A correct dual ESM/CommonJS package, with `changes` merged into its package.json. */
function writePackage(dir: string, changes: Record<string, unknown> = {}): string {
  mkdirSync(join(dir, "dist"), { recursive: true });
  const manifest = {
    name: "@fixture/answer",
    version: "1.0.0",
    license: "MIT",
    homepage: "https://example.github.io/answer/",
    type: "module",
    sideEffects: false,
    main: "./dist/index.cjs",
    module: "./dist/index.js",
    types: "./dist/index.d.ts",
    exports: {
      ".": {
        import: { types: "./dist/index.d.ts", default: "./dist/index.js" },
        require: { types: "./dist/index.d.cts", default: "./dist/index.cjs" },
      },
      "./package.json": "./package.json",
    },
    files: ["dist", "README.md", "LICENSE"],
    engines: { node: ">=20.19" },
    publishConfig: { access: "public" },
    ...changes,
  };
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, "dist", "index.js"), "export const answer = 42;\n");
  writeFileSync(join(dir, "dist", "index.cjs"), '"use strict";\nexports.answer = 42;\n');
  writeFileSync(join(dir, "dist", "index.d.ts"), "export declare const answer = 42;\n");
  writeFileSync(join(dir, "dist", "index.d.cts"), "export declare const answer = 42;\n");
  writeFileSync(join(dir, "README.md"), README);
  writeFileSync(join(dir, "LICENSE"), "MIT\n");
  return dir;
}

describe("check-packages", () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "package-lint-"));
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it("passes a correct dual package", async () => {
    const run = await check(writePackage(join(root, "good")));

    expect(run.output).toContain("ok   @fixture/answer@1.0.0");
    expect(run.output).toContain("All 1 packages are publishable.");
    expect(run.code).toBe(0);
  });

  it("fails a package whose types path names no published file", async () => {
    const exports = {
      ".": {
        import: { types: "./dist/types.d.ts", default: "./dist/index.js" },
        require: { types: "./dist/index.d.cts", default: "./dist/index.cjs" },
      },
    };
    const run = await check(writePackage(join(root, "wrong-types"), { types: "./dist/types.d.ts", exports }));

    expect(run.code).toBe(1);
    expect(run.output).toContain("FAIL @fixture/answer@1.0.0");
    expect(run.output).toMatch(/error +publint .*dist\/types\.d\.ts.*\[FILE_DOES_NOT_EXIST\]/);
    expect(run.output).toContain("1 of 1 packages are not publishable:");
  });

  it("fails types that give CommonJS code ESM declarations", async () => {
    const exports = {
      ".": { types: "./dist/index.d.ts", import: "./dist/index.js", require: "./dist/index.cjs" },
    };
    const run = await check(writePackage(join(root, "false-esm"), { exports }));

    expect(run.code).toBe(1);
    expect(run.output).toMatch(/error +attw +false-esm/);
  });

  it("fails a package that publishes no type declarations", async () => {
    const dir = writePackage(join(root, "untyped"), {
      files: ["dist/index.js", "dist/index.cjs", "README.md", "LICENSE"],
    });
    const run = await check(dir);

    expect(run.code).toBe(1);
    expect(run.output).toMatch(/error +attw +the package publishes no type declarations/);
  });

  it("fails what a registry release needs but publint only suggests", async () => {
    const run = await check(
      writePackage(join(root, "unreleasable"), {
        engines: undefined,
        publishConfig: undefined,
        sideEffects: ["./src/setup.ts"],
      }),
    );

    expect(run.code).toBe(1);
    expect(run.output).toContain("engines.node is missing");
    expect(run.output).toContain('publishConfig.access "public"');
    expect(run.output).toContain('sideEffects lists "./src/setup.ts", which matches no published file');
  });

  it("fails a README with a relative link, or none to the documentation site", async () => {
    const dir = writePackage(join(root, "relative-readme"));
    writeFileSync(
      join(dir, "README.md"),
      "# @fixture/answer\n\nSee [the guide](../../docs/guide/start.md) and [more][m].\n\n[m]: docs/more.md\n\n```ts\nconst x = a[0](b);\n```\n",
    );
    const run = await check(dir);

    expect(run.code).toBe(1);
    expect(run.output).toMatch(
      /error +readme +README links to "\.\.\/\.\.\/docs\/guide\/start\.md", a relative path/,
    );
    expect(run.output).toContain('README links to "docs/more.md"');
    expect(run.output).not.toContain('"b"');
    expect(run.output).toContain(
      "README does not link to the documentation site (homepage https://example.github.io/answer/)",
    );
  });

  it("fails a package whose files entry publishes nothing (a build output missing)", async () => {
    const run = await check(
      writePackage(join(root, "no-site"), { files: ["dist", "site", "README.md", "LICENSE"] }),
    );

    expect(run.code).toBe(1);
    expect(run.output).toMatch(
      /error +manifest +files lists "site", which is not in the package: build it before packing/,
    );
  });

  it("rejects an unknown option", async () => {
    const run = await check("--fix");

    expect(run.code).toBe(2);
    expect(run.output).toContain("unknown option --fix");
  });

  it("names the package it could not pack", async () => {
    const dir = join(root, "no-manifest");
    mkdirSync(dir);
    const run = await check(dir);

    expect(run.code).toBe(1);
    expect(run.output).toMatch(/error +pack +pnpm pack failed in .*no-manifest/);
  });
});
