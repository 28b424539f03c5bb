import { afterAll, beforeAll } from "vitest";
import type { BuiltFixture } from "./build-fixture.js";
import { type PluginProcess, spawnPlugin } from "./spawn-plugin.js";

/** A fixture bundle, readable once the tests of its file or `describe` run. */
export type FixtureBundle = Pick<BuiltFixture, "file" | "dir">;

/** A fixture bundle and the plugin process started from it. */
export interface BundledPlugin {
  /** The bundle, to start more processes from (`spawnPlugin(bundle.file, env)`). */
  readonly bundle: FixtureBundle;
  /** The plugin started from the bundle, driven over its real pipes. */
  readonly plugin: PluginProcess;
}

function ready<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the ${what} is made in beforeAll: read it inside a test`);
  return value;
}

/**
 * Builds fixture bundles side by side before the tests of the enclosing file or
 * `describe` (vitest's `beforeAll`) and removes them after them; one bundle a build.
 * Each build is the bundler call, e.g. `() => bundleWithTsup(entry, { minify: true })`.
 */
export function bundledFixtures<const Builds extends readonly (() => Promise<BuiltFixture>)[]>(
  ...builds: Builds
): { [K in keyof Builds]: FixtureBundle } {
  let built: (BuiltFixture | undefined)[] = [];
  beforeAll(async () => {
    // Settled, not all: a build that fails must not leave the others' folders behind.
    const settled = await Promise.allSettled(builds.map((build) => build()));
    built = settled.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : undefined));
    const failed = settled.find((outcome) => outcome.status === "rejected");
    if (failed) throw failed.reason;
  });
  afterAll(async () => {
    await Promise.all(built.map((bundle) => bundle?.remove()));
  });
  const bundleAt = (index: number): FixtureBundle => ({
    get file() {
      return ready(built[index], "bundle").file;
    },
    get dir() {
      return ready(built[index], "bundle").dir;
    },
  });
  return builds.map((_, index) => bundleAt(index)) as { [K in keyof Builds]: FixtureBundle };
}

/** {@link bundledFixtures} of one build. */
export function bundledFixture(build: () => Promise<BuiltFixture>): FixtureBundle {
  const [bundle] = bundledFixtures(build);
  return bundle;
}

/**
 * {@link bundledFixture}, and the plugin spawned from it before the tests and killed after
 * them (before the bundle is removed: vitest runs `afterAll` hooks in reverse order).
 */
export function bundledPlugin(build: () => Promise<BuiltFixture>): BundledPlugin {
  const bundle = bundledFixture(build);
  let plugin: PluginProcess | undefined;
  beforeAll(() => {
    plugin = spawnPlugin(bundle.file);
  });
  afterAll(() => {
    plugin?.child.kill();
  });
  return {
    bundle,
    get plugin() {
      return ready(plugin, "plugin process");
    },
  };
}
