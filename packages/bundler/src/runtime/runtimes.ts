import type { KnownPlatform } from "../platform/platforms.js";
import type { Runtime } from "./runtime.js";
import * as RUNTIME_TABLE from "./runtime-table.js";

/** The runtime names: those of `runtime-table.ts`, in its order. */
export const RUNTIME_NAMES = namesOf(RUNTIME_TABLE);

/** The runtimes a binary can carry (see `RUNTIME_NAMES`). */
export type RuntimeName = (typeof RUNTIME_NAMES)[number];

/** Every runtime, by name; the type makes a table line that is not a `Runtime` a compile error. */
export const RUNTIMES: Readonly<Record<RuntimeName, Runtime>> = RUNTIME_TABLE;

/** A runtime with the name the table gives it. */
export interface NamedRuntime extends Runtime {
  readonly name: RuntimeName;
}

/**
 * The runtime of each platform unless the author chooses. Chosen by what a host meets
 * first, a fresh process with no warm-up, measured side by side with a hand-written Node
 * plugin (`pnpm bench`; the figures are in the building guide): Bun, compiled with
 * `--bytecode` (see `bunBytecode`), answers its first invoke in a fraction of the time a
 * Node single executable takes (V8's start dominates that one) at an equal or better
 * first burst. Windows keeps Node: Bun folds `process.platform` into the code it compiles
 * for a target, so a Windows Bun binary, which cannot run here, cannot be checked to carry
 * the code of the binary that ran (a Node single executable carries the bundle as is).
 * `runtime: "node"` or `"bun"` chooses otherwise.
 */
export const DEFAULT_RUNTIMES: Readonly<Record<KnownPlatform, RuntimeName>> = {
  "darwin-arm64": "bun",
  "darwin-x86_64": "bun",
  "linux-x86_64": "bun",
  "linux-aarch64": "bun",
  "windows-x86_64": "node",
  "windows-arm64": "node",
};

/** The `runtime` option: one runtime for every target, or one per platform (others keep their default). */
export type RuntimeChoice = RuntimeName | Partial<Record<KnownPlatform, RuntimeName>>;

/** The runtime that builds `platform` under `choice`. Throws a `RangeError` for an unknown name. */
export function runtimeFor(platform: KnownPlatform, choice?: RuntimeChoice): NamedRuntime {
  const name = typeof choice === "string" ? choice : (choice?.[platform] ?? DEFAULT_RUNTIMES[platform]);
  if (!Object.hasOwn(RUNTIMES, name)) {
    throw new RangeError(`runtime: unknown runtime "${name}"; known: ${RUNTIME_NAMES.join(", ")}`);
  }
  return { ...RUNTIMES[name], name };
}

// Generic so that the names' type is inferred as their union: the public declarations then
// spell the names out instead of naming the unexported table.
function namesOf<Table extends object>(table: Table): readonly (keyof Table & string)[] {
  return Object.freeze(Object.keys(table) as (keyof Table & string)[]);
}
