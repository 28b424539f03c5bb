import type { EsbuildPlugin } from "../swc/esbuild-swc-plugin.js";
import { bindingsShimFor } from "./bindings-shim-for.js";
import { directAddonShimFor } from "./direct-addon-shim-for.js";
import { RUNTIME_LOADER_SPECIFIER, type ShimOutcome } from "./loader-shims.js";
import type { NativeAddon } from "./native-addon.js";
import { nodeGypBuildShimFor } from "./node-gyp-build-shim-for.js";
import { RUNTIME_LOADER_SOURCE } from "./runtime-loader.js";

const NAMESPACE = "executa-native-addon";
/** Imports that load a module; `require.resolve("x.node")` and the like are left alone. */
const LOADING_KINDS = new Set(["import-statement", "require-call", "dynamic-import"]);

/**
 * Bundles a plugin that uses native addons. A `.node` file cannot live inside the bundle
 * (nor inside a single executable), so each addon is found at build time and recorded for
 * the build to copy into `lib/`, and its loader is replaced by a module that opens it from
 * `lib/` at run time:
 *
 * - `require("bindings")(name)`: the file `bindings` would load for the calling package;
 * - `require("node-gyp-build")(dir)`: the build or prebuild `node-gyp-build` would load;
 * - `require("./x.node")` or an import of a `.node` file: that file.
 *
 * An addon that is not there at build time (never built, no prebuild for this machine)
 * fails the build, naming the package and the fix, instead of a bundle that crashes at
 * its first use. Addons are found for the machine the build runs on.
 *
 * `found` is the list to record into (emptied when a build starts), or a function that is
 * given each build's list when the build ends.
 *
 * Under tsup, call `disableTsupNativeNodeModules` from `esbuildOptions`: tsup's own
 * handling of `.node` imports runs before this plugin.
 */
export function nativeAddonPlugin(found: NativeAddon[] | ((found: NativeAddon[]) => void)): EsbuildPlugin {
  return {
    name: "executa-native-addons",
    setup(build) {
      let list: NativeAddon[] = [];
      build.onStart(() => {
        list = Array.isArray(found) ? found : [];
        list.length = 0;
      });
      build.onEnd(() => {
        if (typeof found === "function") found(list);
      });
      build.onResolve({ filter: /^bindings$/ }, async (args) =>
        LOADING_KINDS.has(args.kind) ? shim(await bindingsShimFor(args.importer, list)) : undefined,
      );
      build.onResolve({ filter: /^node-gyp-build$/ }, async (args) =>
        LOADING_KINDS.has(args.kind) ? shim(await nodeGypBuildShimFor(args.importer, list)) : undefined,
      );
      build.onResolve({ filter: /\.node$/, namespace: "file" }, async (args) =>
        LOADING_KINDS.has(args.kind)
          ? shim(await directAddonShimFor(args.path, args.resolveDir, args.importer, list))
          : undefined,
      );
      build.onResolve({ filter: new RegExp(`^${RUNTIME_LOADER_SPECIFIER}$`), namespace: NAMESPACE }, () =>
        shim({ name: "runtime-loader", contents: RUNTIME_LOADER_SOURCE }),
      );
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: args.pluginData as string,
        loader: "js",
      }));
    },
  };
}

function shim(outcome: ShimOutcome) {
  if ("error" in outcome) return { errors: [{ text: outcome.error }] };
  // The suffix keeps a shim's path from ending in `.js`: tsup's swc plugin (on when the
  // tsconfig emits decorator metadata) loads every such path whatever its namespace.
  return { path: `${outcome.name}#shim`, namespace: NAMESPACE, pluginData: outcome.contents };
}
