import type { Options } from "tsup";

type EsbuildOptions = Parameters<NonNullable<Options["esbuildOptions"]>>[0];

/** Name of the esbuild plugin tsup adds for `.node` imports. */
const TSUP_NATIVE_PLUGIN = "native-node-modules";

/**
 * Turns off tsup's own esbuild plugin for `.node` imports, so that
 * `nativeAddonPlugin` gets them; call it from tsup's `esbuildOptions`. Returns
 * whether the plugin was there.
 *
 * tsup registers that plugin ahead of every plugin in `esbuildPlugins`, and it turns
 * `require("./x.node")` into a `require()` of a copy beside the bundle inside a
 * try/catch: a single executable's `require` reaches only built-in modules, so the addon
 * silently comes out as `{}`. Its `setup` can still be replaced here because
 * `esbuildOptions` runs while esbuild sets up the plugin before it.
 */
export function disableTsupNativeNodeModules(options: EsbuildOptions): boolean {
  const plugin = options.plugins?.find((candidate) => candidate.name === TSUP_NATIVE_PLUGIN);
  if (plugin) plugin.setup = () => {};
  return plugin !== undefined;
}
