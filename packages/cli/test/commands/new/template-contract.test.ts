import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffold } from "../../../src/commands/new/index.js";

/*
 * What a scaffolded project promises without installing it: it depends on every package
 * its code imports, on the peers of the @executa packages it uses, its scripts type-check
 * before building or testing, its tsconfig is as strict as the toolkit's own, and nothing
 * but the plugin's own files repeats its name (so renaming the plugin renames the build).
 */

const workspaceRoot = fileURLToPath(new URL("../../../../../", import.meta.url));
const NAME = "contract-check";
let base: string;
let project: string;
let files: string[];

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  scripts?: Record<string, string>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, "utf8")) as T;
const read = (file: string) => readFileSync(join(project, file), "utf8");

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "executa-new-contract-"));
  project = join(base, NAME);
  files = scaffold({ name: NAME, dir: project, workspace: false }).files;
});
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

/** The package names a TypeScript file imports (static, side-effect and dynamic imports). */
function importedPackages(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/\bfrom\s+["']([^"']+)["']/g),
    ...source.matchAll(/\bimport\s*\(?\s*["']([^"']+)["']/g),
  ].map((match) => match[1]!);
  const bare = specifiers.filter(
    (spec) => !spec.startsWith(".") && !spec.startsWith("node:") && !builtinModules.includes(spec),
  );
  return [
    ...new Set(
      bare.map((spec) =>
        spec
          .split("/")
          .slice(0, spec.startsWith("@") ? 2 : 1)
          .join("/"),
      ),
    ),
  ];
}

describe("a scaffolded project's contract", () => {
  it("depends on every package its code imports: src/ at run time, the rest at least as dev", () => {
    const manifest = readJson<Manifest>(join(project, "package.json"));
    const runtime = Object.keys(manifest.dependencies ?? {});
    const all = [...runtime, ...Object.keys(manifest.devDependencies ?? {})];
    const sources = files.filter((file) => file.endsWith(".ts"));
    expect(sources).toContain("src/plugin.ts");
    const missing: string[] = [];
    for (const file of sources) {
      const allowed = file.startsWith("src/") ? runtime : all;
      for (const pkg of importedPackages(read(file)))
        if (!allowed.includes(pkg)) missing.push(`${file}: ${pkg}`);
    }
    expect(missing).toEqual([]);
    const { compilerOptions } = readJson<{ compilerOptions: { types?: string[] } }>(
      join(project, "tsconfig.json"),
    );
    for (const type of compilerOptions.types ?? []) expect(all).toContain(`@types/${type}`);
  });

  it("finds the imports the dependency check relies on", () => {
    expect(importedPackages('import { a } from "class-transformer";\nimport "reflect-metadata";')).toEqual([
      "class-transformer",
      "reflect-metadata",
    ]);
    expect(importedPackages('import x from "vitest/config";\nimport { y } from "@scope/pkg/sub";')).toEqual([
      "vitest",
      "@scope/pkg",
    ]);
    expect(importedPackages('import { readFileSync } from "node:fs";\nimport "./local.js";')).toEqual([]);
  });

  it("provides the required peers of the @executa packages it uses", () => {
    const manifest = readJson<Manifest>(join(project, "package.json"));
    const deps = { ...manifest.dependencies, ...manifest.devDependencies };
    const missing: string[] = [];
    for (const name of Object.keys(deps).filter((dep) => dep.startsWith("@executa/"))) {
      const pkg = readJson<Manifest>(
        join(workspaceRoot, "packages", name.slice("@executa/".length), "package.json"),
      );
      for (const peer of Object.keys(pkg.peerDependencies ?? {})) {
        if (!pkg.peerDependenciesMeta?.[peer]?.optional && !(peer in deps))
          missing.push(`${name} needs ${peer}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("lets pnpm build the tools' binaries, and has no native addon to build for local storage", () => {
    const { pnpm } = readJson<{ pnpm?: { onlyBuiltDependencies?: string[] } }>(join(project, "package.json"));
    expect(pnpm?.onlyBuiltDependencies).toEqual(["@swc/core", "bun", "esbuild"]);
  });

  it("type-checks before it builds or tests: tsup and vitest strip types unchecked", () => {
    const { scripts = {} } = readJson<Manifest>(join(project, "package.json"));
    expect(scripts.typecheck).toBe("tsc --noEmit");
    for (const script of ["build", "test"]) expect(scripts[script]).toMatch(/^tsc --noEmit && /);
  });

  it("is as strict as the toolkit's own tsconfig", () => {
    type Options = Record<string, unknown>;
    const own = readJson<{ compilerOptions: Options }>(join(project, "tsconfig.json")).compilerOptions;
    const toolkit = readJson<{ compilerOptions: Options }>(
      join(workspaceRoot, "tooling/tsconfig/base.json"),
    ).compilerOptions;
    for (const key of [
      "strict",
      "noUncheckedIndexedAccess",
      "noImplicitOverride",
      "experimentalDecorators",
      "emitDecoratorMetadata",
      "useDefineForClassFields",
    ]) {
      expect([key, own[key]]).toEqual([key, toolkit[key]]);
    }
  });

  it("names the plugin only where the plugin is defined, so the build follows a rename", () => {
    const naming = files.filter((file) => read(file).includes(NAME));
    expect(naming.sort()).toEqual(["README.md", "package.json", "src/plugin.ts", "test/plugin.test.ts"]);
    expect(read("tsup.config.ts")).not.toMatch(/\bname\s*:/);
  });

  it("tells how to run executa inside the project and outside one", () => {
    const readme = read("README.md");
    expect(readme).toContain("pnpm exec executa check -- ./dist/");
    expect(readme).toMatch(/npx @executa\/cli new /);
  });
});
