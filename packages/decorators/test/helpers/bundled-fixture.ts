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
 * Builds a fixture bundle before the tests of the enclosing file or `describe` (vitest's
 * `beforeAll`) and removes it after them. `build` is the bundler call, e.g.
 * `() => bundleWithTsup(entry, { minify: true })`.
 */
export function bundledFixture(build: () => Promise<BuiltFixture>): FixtureBundle {
  let built: BuiltFixture | undefined;
  beforeAll(async () => {
    built = await build();
  });
  afterAll(async () => {
    await built?.remove();
  });
  return {
    get file() {
      return ready(built, "bundle").file;
    },
    get dir() {
      return ready(built, "bundle").dir;
    },
  };
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
