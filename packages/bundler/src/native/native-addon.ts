import { basename } from "node:path";

/** A native addon (`.node` file) the bundle loads at run time from the plugin's `lib/` folder. */
export interface NativeAddon {
  /** The package that loads it, e.g. `better-sqlite3`. */
  packageName: string;
  /** Absolute real path of the `.node` file found at build time. */
  source: string;
  /** Its file name in `lib/`, unique within the build. */
  libName: string;
  /** The module whose `require` led to it. */
  importer: string;
}

/**
 * Adds an addon to the build's list and returns its entry; the same `.node` file (same
 * real path) found again returns the entry already there. The file keeps its own name in
 * `lib/` unless another addon has it; then it is prefixed with its package's name.
 */
export function recordNativeAddon(found: NativeAddon[], addon: Omit<NativeAddon, "libName">): NativeAddon {
  const known = found.find((entry) => entry.source === addon.source);
  if (known) return known;
  const taken = new Set(found.map((entry) => entry.libName));
  const name = basename(addon.source);
  const prefixed = `${addon.packageName.replace(/^@/, "").replace(/[^A-Za-z0-9._-]/g, "-")}-${name}`;
  let libName = taken.has(name) ? prefixed : name;
  for (let n = 2; taken.has(libName); n++) libName = `${n}-${prefixed}`;
  const entry = { ...addon, libName };
  found.push(entry);
  return entry;
}
