import type { EsbuildPlugin } from "../swc/esbuild-swc-plugin.js";
import { type BundleMetafile, bundleInputs } from "./embedded-packages.js";

/**
 * An esbuild plugin that reports, after each build, the input files whose bytes are in
 * `bundle` (from the metafile the preset asks esbuild for): the module graph the binary's
 * notices and SBOM are taken from, not `node_modules` at large.
 */
export function bundleInputsPlugin(bundle: string, found: (inputs: string[]) => void): EsbuildPlugin {
  return {
    name: "executa-bundle-inputs",
    setup(build) {
      build.onEnd((result) => {
        const metafile = (result as { metafile?: BundleMetafile }).metafile;
        if (metafile)
          found(bundleInputs(metafile, bundle, build.initialOptions.absWorkingDir ?? process.cwd()));
      });
    },
  };
}
