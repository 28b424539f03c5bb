import { rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { DESCRIBE_TIMEOUT_MS, type Manifest } from "@executa/core";
import { type ArchiveResult, createArchive } from "../emit/archive.js";
import { distributionManifest, LIB_DIR } from "../emit/binary-manifest.js";
import { EXECUTA_JSON, executaJson, readAuthoredExecutaJson } from "../emit/executa-json.js";
import { renameBundle } from "../emit/rename-bundle.js";
import { ExecutaBuildError } from "../errors/build-error.js";
import { copyNativeAddons, type NativeAddon } from "../native/index.js";
import { hostPlatform } from "../platform/platform-key.js";
import { type KnownPlatform, resolveTargets, targetPlatform } from "../platform/platforms.js";
import { formatBytes, formatMs } from "../report/format.js";
import { createReporter, isQuiet, type Reporter } from "../report/reporter.js";
import type { RuntimeOptions } from "../runtime/runtime.js";
import type { RuntimeChoice } from "../runtime/runtimes.js";
import { describeSource } from "../source/describe-source.js";
import { ArtifactCheckError } from "../verify/artifact-check-error.js";
import type { DescribeReport } from "../verify/describe-artifact.js";
import { verifyArtifact } from "../verify/verify-artifact.js";
import { buildTargets, type TargetBuild } from "./build-targets.js";

/** File name of the distributed manifest in the output folder (and at the archive's root). */
export const MANIFEST_FILE = "manifest.json";

/** The `targets` option: this machine's platform, all six, or a list. */
export type TargetsOption = "host" | "all" | readonly (KnownPlatform | "host")[];

/** Options of {@link finishBuild}: everything after esbuild wrote the bundle. */
export interface FinishBuildOptions extends RuntimeOptions {
  /** The plugin's TypeScript entry; run from source for the reference manifest. */
  entry: string;
  /** The CommonJS bundle tsup wrote. It is renamed to `NAME.cjs`. */
  bundle: string;
  /** The output folder (`dist`). */
  outDir: string;
  /** Artifact name (files, archive, entrypoint). Default: the manifest's `name`. */
  name?: string;
  /** Build executables and archives. Default true; false: the bundle and the manifests only. */
  binary?: boolean;
  /** Platforms to build for. Default: this machine's only, so the everyday build stays fast. */
  targets?: TargetsOption;
  /** The runtime inside the binaries: one for all, or per platform. Default: see `DEFAULT_RUNTIMES`. */
  runtime?: RuntimeChoice;
  /** Download URL template of the archives for `executa.json` (`{name}`, `{version}`, `{asset}`, `{platform}`). */
  releaseUrl?: string;
  /** A folder shipped as `data/` in every archive (`EXECUTA_DATA` at run time). */
  dataDir?: string;
  /** Native addons the bundle loads, found while bundling; shipped in `lib/`. */
  nativeAddons?: readonly NativeAddon[];
  /** Where the author's own `executa.json` is looked for. Default: the working directory. */
  projectDir?: string;
  /** Print nothing but failures. Default: `EXECUTA_BUILD_QUIET`, else quiet when `CI` is set. */
  quiet?: boolean;
  /** Longest an artifact may take to answer `describe` after start. Default: the spec's 5 s. */
  describeTimeoutMs?: number;
  /** Where the report goes; stdout by default. */
  write?: (text: string) => void;
  /** Working directory and environment for running the source and the artifacts. */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** A verified artifact. */
export interface VerifiedFile {
  path: string;
  size: number;
  /** From spawn to the `describe` answer. */
  describeMs?: number;
}

/** One platform's archive. */
export type PlatformArchiveResult = ArchiveResult & { platform: KnownPlatform };

/** Everything a build produced. Paths are absolute. */
export interface BuildResult {
  name: string;
  version: string;
  /** The manifest every artifact answered (equal to the one from source). */
  manifest: Manifest;
  /** The distributed manifest, with `runtime.binary` when binaries were built. */
  distributedManifest: Manifest;
  /** The source run: its describe time (includes compiling TypeScript). */
  source: { entry: string; describeMs: number };
  bundle: VerifiedFile & { sourceMap: string };
  /** One binary per target, in the order of the targets. */
  binaries: TargetBuild[];
  /** One archive per binary. */
  archives: PlatformArchiveResult[];
  manifestPath: string;
  /** `executa.json` in the agent's shape. */
  executaJsonPath: string;
  /** Non-fatal remarks. */
  notes: string[];
}

const TYPE_IMPORT_HINT =
  "A class used as a parameter type must be imported as a value: `import type { X }` (which lint " +
  "fixes such as biome's useImportType produce) leaves design:paramtypes pointing at nothing, so it reads as Object.";

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The build after bundling: the manifest from source, the bundle renamed to `NAME.cjs`
 * and verified against it, a binary per target platform built and verified, then
 * `manifest.json`, an archive per platform with its sha256, and `executa.json`. Prints a
 * short report unless quiet. Throws an {@link ExecutaBuildError} at the first failure, and
 * removes what it wrote: a failed build leaves nothing to ship.
 */
export async function finishBuild(options: FinishBuildOptions): Promise<BuildResult> {
  const outputs = new Set<string>([resolve(options.bundle), `${resolve(options.bundle)}.map`]);
  try {
    return await runSteps(options, outputs);
  } catch (error) {
    await Promise.all([...outputs].map((path) => rm(path, { recursive: true, force: true })));
    throw error;
  }
}

interface StepContext {
  options: FinishBuildOptions;
  outDir: string;
  report: Reporter;
  shown: (path: string) => string;
  run: { cwd?: string; env?: NodeJS.ProcessEnv };
  outputs: Set<string>;
  notes: string[];
}

async function runSteps(options: FinishBuildOptions, outputs: Set<string>): Promise<BuildResult> {
  const started = performance.now();
  const context: StepContext = {
    options,
    outDir: resolve(options.outDir),
    report: createReporter({ quiet: isQuiet(options.quiet), write: options.write }),
    shown: (path) => {
      const near = relative(process.cwd(), path);
      return near && !near.startsWith("..") ? near : path;
    },
    run: { cwd: options.cwd, env: options.env },
    outputs,
    notes: [],
  };
  const { report, shown } = context;
  const targets = options.binary === false ? [] : checkedTargets(options);
  const source = await fromSource(resolve(options.entry), context.run);
  const manifest = source.manifest;
  const name = options.name ?? manifest.name;
  if (!SAFE_NAME.test(name)) {
    throw new ExecutaBuildError(
      "setup",
      `"${name}" cannot name the build's files; use letters, digits, ".", "_" and "-" (set the manifest name or the name option)`,
    );
  }
  report.start(`${manifest.name} ${manifest.version}`);
  report.step(
    "source",
    `${shown(source.entry)}: ${manifest.tools.length} tool(s), describe ${formatMs(source.describeMs)}`,
  );

  const bundle = await bundleStep(context, name, manifest);
  const binaries =
    targets.length === 0
      ? []
      : await buildTargets({
          bundle: bundle.path,
          name,
          outDir: context.outDir,
          manifest,
          targets,
          runtime: options.runtime,
          runtimeOptions: options,
          nativeAddons: [...new Set((options.nativeAddons ?? []).map((addon) => addon.packageName))],
          describeTimeoutMs: options.describeTimeoutMs ?? DESCRIBE_TIMEOUT_MS,
          run: context.run,
          report,
          shown,
          outputs,
        });

  // Exactly what the built artifact answered (equal to the source's, as just verified).
  const layout = { lib: (options.nativeAddons?.length ?? 0) > 0, data: options.dataDir !== undefined };
  const distributed =
    binaries.length > 0
      ? distributionManifest(
          bundle.manifest,
          name,
          binaries.map((binary) => binary.platform),
          layout,
        )
      : bundle.manifest;
  const manifestPath = join(context.outDir, MANIFEST_FILE);
  outputs.add(manifestPath);
  await writeFile(manifestPath, `${JSON.stringify(distributed, null, 2)}\n`);
  const archives = await archiveStep(context, name, distributed, binaries);
  const executaJsonPath = await executaJsonStep(context, name, manifest, archives);
  report.step("manifest", `${shown(manifestPath)}, ${shown(executaJsonPath)}`);
  for (const note of context.notes) report.note(note);
  report.done(
    `done: ${name} ${manifest.version} (verified and packed in ${formatMs(performance.now() - started)})`,
  );
  return {
    name,
    version: manifest.version,
    manifest: bundle.manifest,
    distributedManifest: distributed,
    source: { entry: source.entry, describeMs: source.describeMs },
    bundle: {
      path: bundle.path,
      size: bundle.size,
      sourceMap: `${bundle.path}.map`,
      describeMs: bundle.describeMs,
    },
    binaries,
    archives,
    manifestPath,
    executaJsonPath,
    notes: context.notes,
  };
}

function checkedTargets(options: FinishBuildOptions) {
  try {
    return resolveTargets(options.targets);
  } catch (error) {
    throw new ExecutaBuildError("setup", (error as Error).message, { cause: error });
  }
}

/** Renames the bundle, ships its native addons beside it, and verifies it against the source. */
async function bundleStep(
  context: StepContext,
  name: string,
  manifest: Manifest,
): Promise<VerifiedFile & { manifest: Manifest }> {
  const { options, report, shown, outputs } = context;
  const bundleFile = join(dirname(resolve(options.bundle)), `${name}.cjs`);
  outputs.add(bundleFile).add(`${bundleFile}.map`);
  const path = await renameBundle(resolve(options.bundle), name);
  const size = (await stat(path)).size;
  const mapSize = await stat(`${path}.map`).then(
    (s) => s.size,
    () => 0,
  );
  report.step("bundle", `${shown(path)}  ${formatBytes(size)} (source map ${formatBytes(mapSize)})`);
  const addons = options.nativeAddons ?? [];
  if (addons.length > 0) {
    const lib = join(dirname(path), LIB_DIR);
    outputs.add(lib);
    await copyNativeAddons(addons, dirname(path));
    report.step(
      "native",
      `${shown(lib)}: ${addons.map((addon) => `${addon.libName} (${addon.packageName})`).join(", ")}`,
    );
  }
  const check = await verifyArtifact({ command: process.execPath, args: [path], ...context.run }, manifest, {
    step: "verify bundle",
    label: shown(path),
    timeoutMs: options.describeTimeoutMs ?? DESCRIBE_TIMEOUT_MS,
  });
  report.step("verify bundle", `manifest matches source · describe ${formatMs(check.describeMs)}`);
  return { path, size, describeMs: check.describeMs, manifest: check.manifest };
}

async function archiveStep(
  context: StepContext,
  name: string,
  distributed: Manifest,
  binaries: readonly TargetBuild[],
): Promise<PlatformArchiveResult[]> {
  const { options, outDir, report, shown, outputs } = context;
  const libDir = (options.nativeAddons?.length ?? 0) > 0 ? join(outDir, LIB_DIR) : undefined;
  const archives: PlatformArchiveResult[] = [];
  for (const binary of binaries) {
    const platform = targetPlatform(binary.platform);
    const archive = await createArchive({
      outDir,
      name,
      platform,
      manifest: distributed,
      binary: binary.path,
      libDir,
      dataDir: options.dataDir ? resolve(options.dataDir) : undefined,
    });
    outputs.add(archive.path).add(archive.sha256Path);
    archives.push({ ...archive, platform: binary.platform });
    report.step("archive", `${shown(archive.path)}  ${formatBytes(archive.size)}`, [
      `sha256 ${archive.sha256}`,
      `size   ${archive.size}`,
    ]);
  }
  return archives;
}

async function executaJsonStep(
  context: StepContext,
  name: string,
  manifest: Manifest,
  archives: readonly PlatformArchiveResult[],
): Promise<string> {
  const { options, outDir, outputs, notes } = context;
  const path = join(outDir, EXECUTA_JSON);
  outputs.add(path);
  const here = hostPlatform();
  const local = archives.find((archive) => archive.platform === here);
  try {
    const authored = await readAuthoredExecutaJson(resolve(options.projectDir ?? process.cwd()));
    const built = executaJson({
      manifest,
      executableName: name,
      archives: archives.map((archive) => ({
        platform: archive.platform,
        file: basename(archive.path),
        sha256: archive.sha256,
        size: archive.size,
        format: archive.format,
        entrypoint: archive.entrypoint,
      })),
      releaseUrl: options.releaseUrl,
      // The agent reads a local archive by absolute path; this profile is for this machine only.
      localArchive: local?.path,
      authored: authored?.value,
      authoredPath: authored?.path,
    });
    notes.push(...built.notes);
    await writeFile(path, `${JSON.stringify(built.json, null, 2)}\n`);
  } catch (error) {
    throw new ExecutaBuildError("manifest", (error as Error).message, { cause: error });
  }
  return path;
}

async function fromSource(
  entry: string,
  run: { cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<DescribeReport & { entry: string }> {
  try {
    return { ...(await describeSource(entry, run)), entry };
  } catch (error) {
    if (!(error instanceof ArtifactCheckError)) throw error;
    const stderr = error.stderr.trimEnd().split("\n").filter(Boolean).slice(-30);
    throw new ExecutaBuildError(
      "source",
      `running ${entry} from source (for the reference manifest) failed: ${error.message}` +
        (stderr.length ? `\n  stderr:\n${stderr.map((line) => `    ${line}`).join("\n")}` : "") +
        (/says Object/.test(error.stderr) ? `\n${TYPE_IMPORT_HINT}` : ""),
      { cause: error },
    );
  }
}
