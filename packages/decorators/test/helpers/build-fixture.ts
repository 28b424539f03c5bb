import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { NODE_TARGET } from "../../../../tooling/tsup-preset/src/index.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Workspace packages resolved to their sources, so a fixture bundle needs no prior build. */
export const SOURCE_ALIASES = {
  "@executa/decorators": here("../../src/index.ts"),
  "@executa/core": here("../../../core/src/index.ts"),
  "@executa/core/internal": here("../../../core/src/internal.ts"),
  "@executa/core/capabilities": here("../../../core/src/capabilities.ts"),
};

/**
 * The workspace's base tsconfig, the one the sample apps extend: experimentalDecorators +
 * emitDecoratorMetadata, as a plugin's own tsconfig has them.
 */
export const TSCONFIG = here("../../../../tooling/tsconfig/base.json");

export interface BuiltFixture {
  file: string;
  dir: string;
  remove(): Promise<void>;
}

/**
 * Bundles a fixture into one CommonJS file with tsup, which runs SWC (decorator metadata)
 * because the tsconfig enables emitDecoratorMetadata — the way plugin authors build.
 */
export async function bundleWithTsup(
  entry: string,
  options: { minify?: boolean } = {},
): Promise<BuiltFixture> {
  const { build } = await import("tsup");
  const dir = await mkdtemp(join(tmpdir(), "executa-decorators-tsup-"));
  await build({
    entry: { plugin: entry },
    outDir: dir,
    format: ["cjs"],
    platform: "node",
    target: NODE_TARGET,
    bundle: true,
    noExternal: [/.*/],
    minify: options.minify ?? false,
    keepNames: true,
    splitting: false,
    sourcemap: false,
    dts: false,
    clean: false,
    silent: true,
    config: false,
    tsconfig: TSCONFIG,
    esbuildOptions(esbuild) {
      esbuild.alias = { ...esbuild.alias, ...SOURCE_ALIASES };
    },
  });
  return built(dir, "plugin.cjs");
}

/** Bundles a fixture with plain esbuild: decorators run, but no design:* metadata is emitted. */
export async function bundleWithEsbuild(entry: string): Promise<BuiltFixture> {
  const esbuild = await import("esbuild");
  const dir = await mkdtemp(join(tmpdir(), "executa-decorators-esbuild-"));
  await esbuild.build({
    entryPoints: [entry],
    outfile: join(dir, "plugin.cjs"),
    bundle: true,
    platform: "node",
    target: NODE_TARGET,
    format: "cjs",
    alias: SOURCE_ALIASES,
    logLevel: "silent",
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
  });
  return built(dir, "plugin.cjs");
}

function built(dir: string, name: string): BuiltFixture {
  return { dir, file: join(dir, name), remove: () => rm(dir, { recursive: true, force: true }) };
}
