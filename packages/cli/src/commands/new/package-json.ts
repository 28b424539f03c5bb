import { EXECUTA_DEV_PACKAGES, EXECUTA_RUNTIME_PACKAGES, THIRD_PARTY_VERSIONS } from "./versions.js";

/** The type check a scaffolded project runs on its own and before building or testing. */
const TYPECHECK = "tsc --noEmit";

/** How the `@executa/*` dependencies are written. */
export interface DependencyStyle {
  /** `workspace:*` (inside the toolkit's pnpm workspace) instead of a version range. */
  workspace: boolean;
  /** The published version, used when not in a workspace. */
  executaVersion: string;
}

/** The package.json of a scaffolded plugin project. */
export function pluginPackageJson(name: string, style: DependencyStyle): Record<string, unknown> {
  const executa = style.workspace ? "workspace:*" : `^${style.executaVersion}`;
  const pick = (names: readonly string[]) => Object.fromEntries(names.map((dep) => [dep, executa]));
  return {
    name,
    version: "0.1.0",
    private: true,
    description: `The ${name} Executa plugin.`,
    type: "module",
    engines: { node: ">=20.19" },
    // tsup and vitest strip types without checking them: build and test type-check first.
    scripts: {
      build: `${TYPECHECK} && tsup`,
      test: `${TYPECHECK} && vitest run`,
      typecheck: TYPECHECK,
      dev: "executa dev src/main.ts",
    },
    dependencies: sortKeys({
      ...pick(EXECUTA_RUNTIME_PACKAGES),
      "class-validator": THIRD_PARTY_VERSIONS["class-validator"],
    }),
    devDependencies: sortKeys({
      ...pick(EXECUTA_DEV_PACKAGES),
      "@swc/core": THIRD_PARTY_VERSIONS["@swc/core"],
      "@types/node": THIRD_PARTY_VERSIONS["@types/node"],
      bun: THIRD_PARTY_VERSIONS.bun,
      tsup: THIRD_PARTY_VERSIONS.tsup,
      typescript: THIRD_PARTY_VERSIONS.typescript,
      "unplugin-swc": THIRD_PARTY_VERSIONS["unplugin-swc"],
      vitest: THIRD_PARTY_VERSIONS.vitest,
    }),
    // pnpm 10 runs no install scripts unless allowed; @swc/core, esbuild and bun (the
    // default runtime of the binaries) need theirs. The local storage of tests and
    // executa dev is SQLite in WebAssembly: nothing to build.
    pnpm: { onlyBuiltDependencies: ["@swc/core", "bun", "esbuild"] },
  };
}

function sortKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
