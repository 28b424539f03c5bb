import { basename, dirname, extname, join, resolve } from "node:path";
import type { Options } from "tsup";
import { startupBanner } from "../harden/startup-banner.js";
import {
  disableTsupNativeNodeModules,
  embeddedWasmPlugin,
  type NativeAddon,
  nativeAddonPlugin,
} from "../native/index.js";
import { bundleInputsPlugin } from "../notices/bundle-inputs-plugin.js";
import {
  type BuildExecutablesResult,
  type FinishBuildOptions,
  finishBuild,
} from "../pipeline/finish-build.js";
import { PreviousOutput } from "../pipeline/previous-output.js";
import { isQuiet } from "../report/reporter.js";
import type { RuntimeOptions } from "../runtime/runtime.js";
import { swcDecoratorPlugin } from "../swc/esbuild-swc-plugin.js";
import { loadSwc } from "../swc/resolve-swc.js";
import { NODE_TARGET } from "./node-target.js";
import { sideEffectFreePlugin } from "./side-effect-free-plugin.js";

/** Options of the {@link executa} preset. */
export interface ExecutaOptions
  extends Pick<
    FinishBuildOptions,
    | "name"
    | "binary"
    | "targets"
    | "runtime"
    | "releaseUrl"
    | "dataDir"
    | "mcpb"
    | "mcpbIcon"
    | "mcpbWithoutFallback"
    | "quiet"
    | "describeTimeoutMs"
    | "compat"
    | "release"
    | "surfaceOut"
    | "projectDir"
    | "write"
    | keyof RuntimeOptions
  > {
  /** The plugin's entry module, e.g. `src/main.ts` (relative to the working directory). */
  entry: string;
  /** Output folder. Default `dist`. */
  outDir?: string;
  /** The tsconfig tsup reads; tsup's own lookup from the working directory by default. */
  tsconfig?: string;
  /**
   * Compile TypeScript with SWC so decorator metadata survives. Default true, and then a
   * missing `@swc/core` fails at once. Only a plugin without decorators (written on
   * `@executa/core` directly) may turn it off.
   */
  decoratorMetadata?: boolean;
  /** Further tsup options, applied over the preset's (entry, format and `onSuccess` stay the preset's). */
  tsup?: Omit<Options, "entry" | "format" | "onSuccess" | "outDir">;
  /** Called with the result after a successful build. */
  onBuilt?: (result: BuildExecutablesResult) => void;
}

/**
 * A tsup configuration that builds an Executa plugin into `dist/`: `NAME.cjs` (one
 * minified CommonJS file with every dependency inlined, names kept, shebang, source map),
 * the single executable `NAME`, `manifest.json`, `executa.json` and
 * `NAME-<platform>.tar.gz` with its `.sha256`, each artifact verified against the
 * manifest from source. The steps after bundling run in tsup's `onSuccess`, so a failed
 * check fails `tsup` with a non-zero exit.
 *
 * ```ts
 * // tsup.config.ts
 * import { defineConfig } from "tsup";
 * import { executa } from "@executa/bundler";
 * export default defineConfig(executa({ entry: "src/main.ts" }));
 * ```
 *
 * Throws an `ExecutaBuildError` (`MISSING_SWC`) right away when `@swc/core` cannot be resolved.
 */
export function executa(options: ExecutaOptions): Options {
  assertEntry(options);
  const swc =
    options.decoratorMetadata !== false
      ? loadSwc([process.cwd(), dirname(resolve(options.entry))])
      : undefined;
  const output: BundleOutput = {
    outDir: options.outDir ?? "dist",
    bundleName: options.name ?? basename(options.entry, extname(options.entry)),
    quiet: isQuiet(options.quiet),
  };
  // Filled while esbuild bundles, read once the bundle exists (tsup --watch: per rebuild).
  let nativeAddons: NativeAddon[] = [];
  let bundleInputs: string[] | undefined;
  const previous = new PreviousOutput(output.outDir);
  return {
    ...bundleOptions(options, output),
    esbuildPlugins: [
      previous.plugin(),
      ...(swc ? [swcDecoratorPlugin(swc)] : []),
      nativeAddonPlugin((found) => (nativeAddons = found)),
      embeddedWasmPlugin(),
      sideEffectFreePlugin(),
      bundleInputsPlugin(join(output.outDir, `${output.bundleName}.cjs`), (found) => (bundleInputs = found)),
      ...(options.tsup?.esbuildPlugins ?? []),
    ],
    esbuildOptions: esbuildOptionsFor(options),
    onSuccess: () => finishAfterBundle(options, output, { nativeAddons, bundleInputs }, previous),
  };
}

/** Where the bundle goes and how loud the build is. */
interface BundleOutput {
  outDir: string;
  /** `NAME` of `NAME.cjs`. */
  bundleName: string;
  quiet: boolean;
}

function assertEntry(options: ExecutaOptions): void {
  if (typeof options?.entry !== "string" || options.entry === "") {
    throw new TypeError(
      'executa(): `entry` must name the plugin\'s entry module, e.g. { entry: "src/main.ts" }',
    );
  }
}

/** One minified CommonJS file with every dependency inlined, names kept, shebang and startup guard, source map. */
function bundleOptions(options: ExecutaOptions, output: BundleOutput): Options {
  return {
    silent: output.quiet,
    tsconfig: options.tsconfig,
    ...options.tsup,
    entry: { [output.bundleName]: options.entry },
    outDir: output.outDir,
    format: ["cjs"],
    platform: "node",
    target: NODE_TARGET,
    outExtension: () => ({ js: ".cjs" }),
    bundle: true,
    // Every dependency inlined: the binary's require() reaches only built-in modules.
    noExternal: [/.*/],
    splitting: false,
    treeshake: false,
    minify: true,
    keepNames: true,
    sourcemap: true,
    shims: true,
    dts: false,
    // The output folder starts empty all the same: the previous one is set aside (see PreviousOutput).
    clean: false,
    // Shebang, then the startup guard (src/harden/startup-banner.ts): before any module runs.
    banner: { js: startupBanner() },
  };
}

/** esbuild settings a single executable needs, then the author's own hook. */
function esbuildOptionsFor(options: ExecutaOptions): NonNullable<Options["esbuildOptions"]> {
  return (esbuild, context) => {
    // tsup's own `.node` handling would run first and leave the addon out of a binary.
    disableTsupNativeNodeModules(esbuild);
    // Packages without an exports map (class-validator, class-transformer) ship ES5 under
    // "module" and ES2015 under "es2015": the latter is ~5% smaller once bundled, and Node 20 runs it.
    esbuild.mainFields = ["es2015", "module", "main"];
    // A single executable has no ESM loader on Node 20: `import("node:crypto")` there throws
    // ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING. Lowered, it becomes a deferred require().
    esbuild.supported = { ...esbuild.supported, "dynamic-import": false };
    // The module graph, for the notices and SBOM of what the binary embeds (not written to disk).
    esbuild.metafile = true;
    options.tsup?.esbuildOptions?.(esbuild, context);
  };
}

/** tsup's `onSuccess`: every step after the bundle exists (see `finishBuild`). */
async function finishAfterBundle(
  options: ExecutaOptions,
  output: BundleOutput,
  found: { nativeAddons: NativeAddon[]; bundleInputs?: string[] },
  previous: PreviousOutput,
): Promise<void> {
  const { entry, tsconfig, decoratorMetadata, tsup, onBuilt, ...build } = options;
  let result: Awaited<ReturnType<typeof finishBuild>>;
  try {
    result = await finishBuild({
      ...build,
      entry,
      bundle: join(output.outDir, `${output.bundleName}.cjs`),
      outDir: output.outDir,
      quiet: output.quiet,
      ...found,
    });
  } catch (error) {
    previous.restore();
    throw error;
  }
  previous.drop();
  onBuilt?.(result);
}
