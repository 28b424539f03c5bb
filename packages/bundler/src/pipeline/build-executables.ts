import { ExecutaBuildError } from "../errors/build-error.js";
import type { ExecutaOptions } from "../preset/executa.js";
import { executa } from "../preset/executa.js";
import type { BuildResult } from "./finish-build.js";

/** Options of {@link buildPlugin}: the preset's, without the callback. */
export type BuildPluginOptions = Omit<ExecutaOptions, "onBuilt">;

/**
 * Builds a plugin from its entry to every output, as `tsup` with the {@link executa}
 * preset would, without a tsup.config.ts (what `executa build` runs). tsup's own log is
 * off (the build report covers it) unless `tsup: { silent: false }`. Resolves with the
 * result; rejects with an `ExecutaBuildError`, also when bundling itself fails (step
 * `bundle`, with esbuild's message). Relative paths are taken from the working
 * directory, as tsup takes them.
 */
export async function buildPlugin(options: BuildPluginOptions): Promise<BuildResult> {
  const { build } = await import("tsup");
  let result: BuildResult | undefined;
  const preset = executa({ ...options, onBuilt: (built) => (result = built) });
  try {
    await build({ ...preset, silent: options.tsup?.silent ?? true, config: false });
  } catch (error) {
    if (error instanceof ExecutaBuildError) throw error;
    throw new ExecutaBuildError("bundle", error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
  if (!result) throw new ExecutaBuildError("bundle", "tsup finished without running the executa build steps");
  return result;
}
