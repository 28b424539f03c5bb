import type { ExecutaOptions } from "../preset/executa.js";
import { executa } from "../preset/executa.js";
import type { BuildResult } from "./finish-build.js";

/** Options of {@link buildPlugin}: the preset's, without the callback. */
export type BuildPluginOptions = Omit<ExecutaOptions, "onBuilt">;

/**
 * Builds a plugin from its entry to every output, as `tsup` with the {@link executa}
 * preset would, without a tsup.config.ts (what `executa build` runs). Resolves with the
 * result; rejects with an `ExecutaBuildError` when a step or a check fails. Relative
 * paths are taken from the working directory, as tsup takes them.
 */
export async function buildPlugin(options: BuildPluginOptions): Promise<BuildResult> {
  const { build } = await import("tsup");
  let result: BuildResult | undefined;
  await build({ ...executa({ ...options, onBuilt: (built) => (result = built) }), config: false });
  if (!result) throw new Error("tsup finished without running the executa build steps");
  return result;
}
