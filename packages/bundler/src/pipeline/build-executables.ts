import { ExecutaBuildError } from "../errors/build-error.js";
import type { ExecutaOptions } from "../preset/executa.js";
import { executa } from "../preset/executa.js";
import type { BuildExecutablesResult } from "./finish-build.js";

/** Options of {@link buildExecutables}: the preset's, without the callback. */
export type BuildExecutablesOptions = Omit<ExecutaOptions, "onBuilt">;

/**
 * Builds a plugin from its entry to every output, as `tsup` with the {@link executa}
 * preset would, without a tsup.config.ts (what `executa build` runs). tsup's own log is
 * off (the build report covers it) unless `tsup: { silent: false }`. Resolves with the
 * result; rejects with an `ExecutaBuildError`, also when bundling itself fails
 * (`BUNDLE_FAILED` at step `bundle`, with esbuild's message). Relative paths are taken from the working
 * directory, as tsup takes them.
 */
export async function buildExecutables(options: BuildExecutablesOptions): Promise<BuildExecutablesResult> {
  const { build } = await import("tsup");
  let result: BuildExecutablesResult | undefined;
  const preset = executa({ ...options, onBuilt: (built) => (result = built) });
  try {
    await build({ ...preset, silent: options.tsup?.silent ?? true, config: false });
  } catch (error) {
    if (error instanceof ExecutaBuildError) throw error;
    throw new ExecutaBuildError("BUNDLE_FAILED", error instanceof Error ? error.message : String(error), {
      step: "bundle",
      cause: error,
    });
  }
  if (!result) {
    throw new ExecutaBuildError("BUNDLE_FAILED", "tsup finished without running the executa build steps", {
      step: "bundle",
    });
  }
  return result;
}
