import { copyFile, cp, mkdir, readdir, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { extract, list } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExecutaBuildError } from "../../src/errors/build-error.js";
import { buildExecutables } from "../../src/pipeline/build-executables.js";
import type { BuildExecutablesResult } from "../../src/pipeline/finish-build.js";
import { hostPlatform } from "../../src/platform/platform-key.js";
import { drive, invoke } from "../helpers/drive.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/temp-dir.js";

// Builds real binaries that open a real addon (better-sqlite3's, built from source by
// `pnpm install`) from lib/ at run time: slow, one build per describe block.
const BUILD_TIMEOUT_MS = 300_000;
const platform = hostPlatform();
const requireHere = createRequire(import.meta.url);
const sqliteAddon = join(
  dirname(requireHere.resolve("better-sqlite3/package.json")),
  "build/Release/better_sqlite3.node",
);

describe("a plugin that uses better-sqlite3 (an addon loaded through bindings)", () => {
  let out: Awaited<ReturnType<typeof tempDir>>;
  let result: BuildExecutablesResult;
  const name = "native-addon-fixture";

  beforeAll(async () => {
    out = await tempDir("native-sqlite");
    result = await buildExecutables({
      entry: fixture("native-addon/main.ts"),
      outDir: out.path,
      quiet: true,
    });
  }, BUILD_TIMEOUT_MS);
  afterAll(() => out?.remove());

  it("ships the addon in lib/ beside the bundle and in the archive, and records it", async () => {
    expect(await readdir(join(out.path, "lib"))).toEqual(["better_sqlite3.node"]);
    const entries: string[] = [];
    await list({ file: result.archives[0]!.path, onReadEntry: (entry) => entries.push(entry.path) });
    expect(entries).toEqual(
      expect.arrayContaining(["manifest.json", `bin/${name}`, "lib/better_sqlite3.node"]),
    );
  });

  it("the bundle and the single executable open it and answer", async () => {
    for (const command of [
      { command: process.execPath, args: [join(out.path, `${name}.cjs`)] },
      { command: join(out.path, name) },
    ]) {
      const run = await drive(command, [invoke("sqlite_version")]);
      expect(run.outcomes[0], run.stderr).toMatchObject({
        result: { success: true, data: { version: expect.stringMatching(/^3\.\d+\.\d+$/) } },
      });
      expect(run.exitCode).toBe(0);
    }
  });

  it("installed from the archive, bin/NAME finds ../lib; a binary elsewhere finds $EXECUTA_HOME/lib", async () => {
    const home = join(out.path, "installed");
    await mkdir(home);
    await extract({ file: result.archives[0]!.path, cwd: home });
    const fromArchive = await drive({ command: join(home, "bin", name), cwd: out.path }, [
      invoke("sqlite_version"),
    ]);
    expect(fromArchive.outcomes[0], fromArchive.stderr).toMatchObject({ result: { success: true } });

    const alone = join(out.path, "alone");
    await mkdir(alone);
    await copyFile(join(home, "bin", name), join(alone, name));
    const viaHome = await drive({ command: join(alone, name), env: { ...process.env, EXECUTA_HOME: home } }, [
      invoke("sqlite_version"),
    ]);
    expect(viaHome.outcomes[0], viaHome.stderr).toMatchObject({ result: { success: true } });
  });

  it("without lib/, the invoke fails with a message naming the addon and where it was looked for; the plugin keeps serving", async () => {
    // Its own temp folder: `out/lib` would be `../lib` of a folder inside `out`.
    const alone = await tempDir("native-no-lib");
    await copyFile(join(out.path, name), join(alone.path, name));
    const run = await drive({ command: join(alone.path, name), env: { ...process.env, EXECUTA_HOME: "" } }, [
      invoke("sqlite_version"),
      { method: "health" },
    ]).finally(() => alone.remove());
    const failure = JSON.stringify(run.outcomes[0]);
    expect(failure).toContain("better_sqlite3.node");
    expect(failure).toContain("lib/ folder");
    expect(run.outcomes[1]).toMatchObject({ result: { status: "ready" } });
  });

  it(
    "refuses a target other than this machine, before building anything",
    async () => {
      const other = platform === "linux-aarch64" ? "linux-x86_64" : "linux-aarch64";
      const dir = await tempDir("native-cross");
      try {
        const failure = await buildExecutables({
          entry: fixture("native-addon/main.ts"),
          outDir: dir.path,
          quiet: true,
          targets: [other],
        }).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(ExecutaBuildError);
        expect((failure as Error).message).toContain(
          `${other} (node): better-sqlite3 ships a native addon built for this ${platform} machine`,
        );
        expect((failure as Error).message).toContain(
          `Build ${other} on a ${other} machine, or leave it out of targets.`,
        );
      } finally {
        await dir.remove();
      }
    },
    BUILD_TIMEOUT_MS,
  );
});

/**
 * A package holding the loaders fixture, an addon required directly, and two packages
 * that load theirs through node-gyp-build and bindings (each addon a copy of
 * better-sqlite3's: a real addon for this machine's Node).
 */
async function loadersPackage(dir: string, options: { gypBuilt: boolean }): Promise<string> {
  await cp(fixture("native-addon-loaders"), dir, { recursive: true });
  await mkdir(join(dir, "native"));
  await copyFile(sqliteAddon, join(dir, "native", "direct.node"));
  const modules = join(dir, "node_modules");
  await mkdir(join(modules, "@executa"), { recursive: true });
  await symlink(
    await realpath(dirname(requireHere.resolve("@executa/core/package.json"))),
    join(modules, "@executa", "core"),
  );
  const addonPackage = async (pkg: string, loader: string, addon: string | undefined) => {
    await mkdir(join(modules, pkg, "build", "Release"), { recursive: true });
    await writeFile(
      join(modules, pkg, "package.json"),
      JSON.stringify({ name: pkg, version: "1.0.0", main: "index.js" }),
    );
    await writeFile(join(modules, pkg, "index.js"), `module.exports = ${loader};\n`);
    if (addon) await copyFile(sqliteAddon, join(modules, pkg, "build", "Release", addon));
  };
  await addonPackage(
    "gyp-addon",
    'require("node-gyp-build")(__dirname)',
    options.gypBuilt ? "gyp_addon.node" : undefined,
  );
  await addonPackage("bindings-addon", 'require("bindings")("bindings_addon")', "bindings_addon.node");
  return join(dir, "main.ts");
}

describe("an addon required directly, through node-gyp-build and through bindings", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let out: string;

  beforeAll(async () => {
    dir = await tempDir("native-loaders");
    out = join(dir.path, "dist");
    await buildExecutables({
      entry: await loadersPackage(dir.path, { gypBuilt: true }),
      outDir: out,
      quiet: true,
    });
  }, BUILD_TIMEOUT_MS);
  afterAll(() => dir?.remove());

  it("ships each in lib/ and the binary loads each from there", async () => {
    expect((await readdir(join(out, "lib"))).sort()).toEqual([
      "bindings_addon.node",
      "direct.node",
      "gyp_addon.node",
    ]);
    // The sources are gone: only lib/ can serve them.
    await rm(join(dir.path, "node_modules"), { recursive: true });
    await rm(join(dir.path, "native"), { recursive: true });
    const run = await drive({ command: join(out, "native-addon-loaders-fixture") }, [
      invoke("addon_exports", { via: "direct" }),
      invoke("addon_exports", { via: "node-gyp-build" }),
      invoke("addon_exports", { via: "bindings" }),
    ]);
    for (const outcome of run.outcomes) {
      expect(outcome, run.stderr).toMatchObject({
        result: { success: true, data: { exports: expect.arrayContaining(["Database"]) } },
      });
    }
  });
});

describe("an addon that was never built", () => {
  it(
    "fails the build at bundling, naming the package, where it looked and the fix",
    async () => {
      const dir = await tempDir("native-unbuilt");
      try {
        const entry = await loadersPackage(dir.path, { gypBuilt: false });
        const failure = await buildExecutables({ entry, outDir: join(dir.path, "dist"), quiet: true }).catch(
          (error: unknown) => error,
        );
        expect(failure).toBeInstanceOf(ExecutaBuildError);
        const message = (failure as Error).message;
        expect(message).toContain(
          "gyp-addon loads its native addon through node-gyp-build, but neither a build nor a prebuild",
        );
        expect(message).toContain(join("gyp-addon", "build", "Release", "*.node"));
        expect(message).toContain("pnpm rebuild gyp-addon");
      } finally {
        await dir.remove();
      }
    },
    BUILD_TIMEOUT_MS,
  );
});
