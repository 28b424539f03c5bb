import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { fixture } from "../helpers/fixtures.js";

const run = promisify(execFile);
const dist = (file: string) => fileURLToPath(new URL(`../../dist/${file}`, import.meta.url));

interface Loaded {
  resolved: string;
  exports: string[];
  sqliteModules: string[];
  addons: string[];
}

/** Loads a built entry by its package name in a fresh `node` and reports what came with it. */
async function load(specifier: string, how: "import" | "require"): Promise<Loaded> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const { stdout } = await run(process.execPath, [fixture("load-entry.mjs"), specifier, how], {
    env,
    timeout: 60_000,
  });
  return JSON.parse(stdout) as Loaded;
}

// The entries are checked as built (what the bundler, the CLI and users load), so the
// package must be built first: `pnpm test` does, or `pnpm --filter @executa/host build`.
describe("package entries", () => {
  it("is built", () => {
    expect(existsSync(dist("index.js")), "run `pnpm --filter @executa/host build`").toBe(true);
    expect(existsSync(dist("local/index.js")), "run `pnpm --filter @executa/host build`").toBe(true);
  });

  for (const how of ["import", "require"] as const) {
    it(`@executa/host (${how}) is the driver only and loads no native module`, async () => {
      const loaded = await load("@executa/host", how);
      expect(loaded.resolved).toContain(how === "import" ? "dist/index.js" : "dist/index.cjs");
      expect(loaded.exports).toEqual(
        expect.arrayContaining([
          "PluginProcess",
          "spawnPlugin",
          "HostError",
          "isHostError",
          "takeTransportFile",
        ]),
      );
      expect(loaded.exports).not.toContain("createLocalProviders");
      expect(loaded.exports).not.toContain("LocalStore");
      expect(loaded.sqliteModules).toEqual([]);
      expect(loaded.addons).toEqual([]);
    });

    it(`@executa/host/local (${how}) holds the local providers and stores with no native addon`, async () => {
      const loaded = await load("@executa/host/local", how);
      expect(loaded.resolved).toContain(how === "import" ? "dist/local/index.js" : "dist/local/index.cjs");
      expect(loaded.exports).toEqual(
        expect.arrayContaining([
          "createLocalProviders",
          "LocalStore",
          "StorageProvider",
          "FilesProvider",
          "UploadProvider",
          "SamplingProvider",
        ]),
      );
      expect(loaded.exports).not.toContain("PluginProcess");
      // The control for the checks above: this entry's SQLite is seen, and it wrote a file.
      expect(loaded.sqliteModules.length).toBeGreaterThan(0);
      expect(loaded.addons).toEqual([]);
    });
  }
});
