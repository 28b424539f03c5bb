import { readFile, realpath } from "node:fs/promises";
import { bindingsNamesIn } from "./bindings-calls.js";
import { bindingsFileName, lookUpBindingsAddon } from "./bindings-lookup.js";
import { bindingsShim, type ShimOutcome } from "./loader-shims.js";
import { type NativeAddon, recordNativeAddon } from "./native-addon.js";
import { bindingsModuleRoot, owningPackage } from "./owning-package.js";

/**
 * The `bindings` replacement for a module that requires it: each addon name the module
 * passes is looked up where `bindings` would look and recorded in `found`. Fails when an
 * addon has not been built, or the names cannot be read from the module.
 */
export async function bindingsShimFor(importer: string, found: NativeAddon[]): Promise<ShimOutcome> {
  const packageName = owningPackage(importer)?.name ?? importer;
  const names = bindingsNamesIn(await readFile(importer, "utf8"));
  if (!names) {
    return {
      error:
        `${packageName} (${importer}) passes bindings an addon name computed at run time, so the build ` +
        "cannot tell which .node file to ship in lib/. Such a package cannot be bundled into an Executa plugin yet.",
    };
  }
  const moduleRoot = bindingsModuleRoot(importer);
  if (moduleRoot === undefined) {
    return {
      error: `${packageName} (${importer}) uses bindings, but no folder above it holds a package.json or node_modules, so bindings could not find its addon either.`,
    };
  }
  const libNames = new Map<string, string>();
  for (const name of new Set(names.map(bindingsFileName))) {
    const lookup = lookUpBindingsAddon(moduleRoot, name);
    if (lookup.found === undefined) {
      return {
        error:
          `${packageName} loads its native addon ${name} through bindings, but it has not been built: ` +
          `none of these files exists:\n${lookup.tried.map((path) => `  ${path}`).join("\n")}\n` +
          `Install or build it (\`pnpm rebuild ${packageName}\`), then build again.`,
      };
    }
    const source = await realpath(lookup.found);
    libNames.set(name, recordNativeAddon(found, { packageName, source, importer }).libName);
  }
  return { name: `bindings:${importer}`, contents: bindingsShim(packageName, libNames) };
}
