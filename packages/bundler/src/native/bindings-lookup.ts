import { statSync } from "node:fs";
import { extname, join } from "node:path";

/** Where `bindings` would load an addon from, and every path it would try. */
export interface BindingsLookup {
  /** The first existing candidate: the file `bindings` loads. */
  found: string | undefined;
  tried: string[];
}

/** The addon's file name as `bindings` completes it: `.node` appended unless already there. */
export function bindingsFileName(name: string): string {
  return extname(name) === ".node" ? name : `${name}.node`;
}

/**
 * The paths `bindings` tries for an addon, in its order: its `defaults.try` list
 * (bindings 1.5.0) under the module root, with this process's Node version, ABI,
 * platform and architecture, as the build runs on the machine the addon was built for.
 */
export function bindingsCandidates(moduleRoot: string, name: string): string[] {
  const { platform, arch } = process;
  const compiled = process.env.NODE_BINDINGS_COMPILED_DIR || "compiled";
  const nodePreGyp = `node-v${process.versions.modules}-${platform}-${arch}`;
  const folders = [
    ["build"],
    ["build", "Debug"],
    ["build", "Release"],
    ["out", "Debug"],
    ["Debug"],
    ["out", "Release"],
    ["Release"],
    ["build", "default"],
    [compiled, process.versions.node, platform, arch],
    ["addon-build", "release", "install-root"],
    ["addon-build", "debug", "install-root"],
    ["addon-build", "default", "install-root"],
    ["lib", "binding", nodePreGyp],
  ];
  const file = bindingsFileName(name);
  return folders.map((folder) => join(moduleRoot, ...folder, file));
}

/** Finds the file `bindings(name)` would load for a module root. */
export function lookUpBindingsAddon(moduleRoot: string, name: string): BindingsLookup {
  const tried = bindingsCandidates(moduleRoot, name);
  return { found: tried.find(isFile), tried };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
