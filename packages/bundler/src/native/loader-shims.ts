import type { NativeAddon } from "./native-addon.js";

/**
 * A replacement module (a name unique to what it loads, and its source), or why there can
 * be none: the build then fails with that message.
 */
export type ShimOutcome = { name: string; contents: string } | { error: string };

/** The specifier the shims require the run-time loader by (see `runtime-loader.ts`). */
export const RUNTIME_LOADER_SPECIFIER = "executa-native-addon-loader";

const requireLoader = `const { load, locate } = require(${JSON.stringify(RUNTIME_LOADER_SPECIFIER)});`;

/** The module that replaces a required `.node` file: its exports are the addon's. */
export function directAddonShim(addon: NativeAddon): string {
  return `${requireLoader}
module.exports = load(${JSON.stringify(addon.libName)}, ${JSON.stringify(addon.packageName)});
`;
}

/**
 * The module that replaces `bindings` for one importer: `bindings(name)` (or
 * `bindings({ bindings: name, path })`) loads the addon found for that name at build time.
 */
export function bindingsShim(packageName: string, libNames: ReadonlyMap<string, string>): string {
  return `${requireLoader}
const packageName = ${JSON.stringify(packageName)};
const libNames = new Map(${JSON.stringify([...libNames])});
module.exports = function bindings(options) {
  const opts = typeof options === "string" ? { bindings: options } : options || {};
  let name = opts.bindings || "bindings.node";
  if (!name.endsWith(".node")) name += ".node";
  const libName = libNames.get(name);
  if (libName === undefined) {
    throw new Error(
      packageName + " asked bindings for " + name + ", which the build did not see; it bundled only " +
        [...libNames.keys()].join(", ") + ". Pass the addon's name to bindings as a string literal.",
    );
  }
  return opts.path ? locate(libName, packageName) : load(libName, packageName);
};
`;
}

/** The module that replaces `node-gyp-build` for one importer: any call loads its addon. */
export function nodeGypBuildShim(addon: NativeAddon): string {
  const args = `${JSON.stringify(addon.libName)}, ${JSON.stringify(addon.packageName)}`;
  return `${requireLoader}
function nodeGypBuild() {
  return load(${args});
}
nodeGypBuild.resolve = nodeGypBuild.path = () => locate(${args});
module.exports = nodeGypBuild;
`;
}
