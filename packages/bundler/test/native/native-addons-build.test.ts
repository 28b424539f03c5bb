import { readdirSync, realpathSync } from "node:fs";
import { copyFile, cp, mkdir, readdir, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { extract, list } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExecutaBuildError } from "../../src/errors/build-error.js";
import { buildExecutables } from "../../src/pipeline/build-executables.js";
import type { BuildExecutablesResult } from "../../src/pipeline/finish-build.js";
import { hostPlatform } from "../../src/platform/platform-key.js";
import { DEFAULT_RUNTIMES } from "../../src/runtime/runtimes.js";
import { drive, invoke } from "../helpers/drive.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/temp-dir.js";

// Builds real binaries that open a real addon from lib/ at run time: slow, one build per
// describe block. The addon is @swc/core's prebuilt binding (a dependency already, for
// this machine's Node), copied into packages that load it each way.
const BUILD_TIMEOUT_MS = 300_000;
const platform = hostPlatform();
const requireHere = createRequire(import.meta.url);
const realAddon = prebuiltAddon();

/** The `.node` file of @swc/core's binding for this machine (a sibling package of @swc/core). */
function prebuiltAddon(): string {
  const scope = dirname(realpathSync(dirname(requireHere.resolve("@swc/core/package.json"))));
  for (const entry of readdirSync(scope).filter((name) => name.startsWith("core-"))) {
    const addon = readdirSync(join(scope, entry)).find((name) => name.endsWith(".node"));
    if (addon) return join(scope, entry, addon);
  }
  throw new Error(`no prebuilt @swc/core binding beside ${scope}: run pnpm install`);
}

describe("a plugin whose dependency loads its addon through bindings", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let out: string;
  let result: BuildExecutablesResult;
  const name = "native-addon-loaders-fixture";
  const viaBindings = invoke("addon_exports", { via: "bindings" });

  beforeAll(async () => {
    dir = await tempDir("native-bindings");
    out = join(dir.path, "dist");
    result = await buildExecutables({
      entry: await loadersPackage(dir.path, { gypBuilt: true }),
      outDir: out,
      quiet: true,
    });
  }, BUILD_TIMEOUT_MS);
  afterAll(() => dir?.remove());

  it("ships the addon in lib/ beside the bundle and in the archive, and records it", async () => {
    expect(await readdir(join(out, "lib"))).toContain("bindings_addon.node");
    const entries: string[] = [];
    await list({ file: result.archives[0]!.path, onReadEntry: (entry) => entries.push(entry.path) });
    expect(entries).toEqual(
      expect.arrayContaining(["manifest.json", `bin/${name}`, "lib/bindings_addon.node"]),
    );
  });

  it("the bundle and the single executable open it and answer", async () => {
    for (const command of [
      { command: process.execPath, args: [join(out, `${name}.cjs`)] },
      { command: join(out, name) },
    ]) {
      const run = await drive(command, [viaBindings]);
      expect(run.outcomes[0], run.stderr).toMatchObject({
        result: { success: true, data: { exports: expect.arrayContaining(["getTargetTriple"]) } },
      });
      expect(run.exitCode).toBe(0);
    }
  });

  it("installed from the archive, bin/NAME finds ../lib; a binary elsewhere finds $EXECUTA_HOME/lib", async () => {
    const home = join(out, "installed");
    await mkdir(home);
    await extract({ file: result.archives[0]!.path, cwd: home });
    const fromArchive = await drive({ command: join(home, "bin", name), cwd: out }, [viaBindings]);
    expect(fromArchive.outcomes[0], fromArchive.stderr).toMatchObject({ result: { success: true } });

    const alone = join(out, "alone");
    await mkdir(alone);
    await copyFile(join(home, "bin", name), join(alone, name));
    const viaHome = await drive({ command: join(alone, name), env: { ...process.env, EXECUTA_HOME: home } }, [
      viaBindings,
    ]);
    expect(viaHome.outcomes[0], viaHome.stderr).toMatchObject({ result: { success: true } });
  });

  it("without lib/, the invoke fails with a message naming the addon and where it was looked for; the plugin keeps serving", async () => {
    // Its own temp folder: `out/lib` would be `../lib` of a folder inside `out`.
    const alone = await tempDir("native-no-lib");
    await copyFile(join(out, name), join(alone.path, name));
    const run = await drive({ command: join(alone.path, name), env: { ...process.env, EXECUTA_HOME: "" } }, [
      viaBindings,
      { method: "health" },
    ]).finally(() => alone.remove());
    const failure = JSON.stringify(run.outcomes[0]);
    expect(failure).toContain("bindings_addon.node");
    expect(failure).toContain("lib/ folder");
    expect(run.outcomes[1]).toMatchObject({ result: { status: "ready" } });
  });

  it(
    "refuses a target other than this machine, before building anything",
    async () => {
      const other = platform === "linux-aarch64" ? "linux-x86_64" : "linux-aarch64";
      const cross = await tempDir("native-cross");
      try {
        const failure = await buildExecutables({
          entry: join(dir.path, "main.ts"),
          outDir: cross.path,
          quiet: true,
          targets: [other],
        }).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(ExecutaBuildError);
        const message = (failure as Error).message;
        expect(message).toContain(`${other} (${DEFAULT_RUNTIMES[other]}): `);
        expect(message).toContain("bindings-addon");
        expect(message).toContain(`ship a native addon built for this ${platform} machine`);
        expect(message).toContain(`Build ${other} on a ${other} machine, or leave it out of targets.`);
      } finally {
        await cross.remove();
      }
    },
    BUILD_TIMEOUT_MS,
  );
});

/**
 * A package holding the loaders fixture, an addon required directly, and two packages
 * that load theirs through node-gyp-build and bindings (each addon a copy of a real addon
 * for this machine's Node).
 */
async function loadersPackage(dir: string, options: { gypBuilt: boolean }): Promise<string> {
  await cp(fixture("native-addon-loaders"), dir, { recursive: true });
  await mkdir(join(dir, "native"));
  await copyFile(realAddon, join(dir, "native", "direct.node"));
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
      JSON.stringify({ name: pkg, version: "1.0.0", license: "MIT", main: "index.js" }),
    );
    await writeFile(join(modules, pkg, "index.js"), `module.exports = ${loader};\n`);
    if (addon) await copyFile(realAddon, join(modules, pkg, "build", "Release", addon));
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
        result: { success: true, data: { exports: expect.arrayContaining(["getTargetTriple"]) } },
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
