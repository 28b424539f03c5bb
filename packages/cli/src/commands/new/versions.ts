/**
 * Versions of the third-party packages a scaffolded project depends on: the ranges this
 * toolkit is built and tested with (a test keeps them equal to the workspace's own).
 * Node 20 bounds them: tsup 8 and vitest 4 are the last majors that run on it.
 */
export const THIRD_PARTY_VERSIONS = {
  "class-validator": "^0.15.1",
  "@swc/core": "^1.16.22",
  "@types/node": "^20.19.0",
  tsup: "^8.5.0",
  typescript: "~5.9.3",
  "unplugin-swc": "^2.0.0",
  vitest: "^4.1.12",
  bun: "1.4.5",
} as const;

/** The `@executa/*` packages a scaffolded project uses at run time. */
export const EXECUTA_RUNTIME_PACKAGES = ["@executa/decorators"] as const;

/** The `@executa/*` packages a scaffolded project uses to build, test and run. */
export const EXECUTA_DEV_PACKAGES = ["@executa/bundler", "@executa/cli", "@executa/testing"] as const;
