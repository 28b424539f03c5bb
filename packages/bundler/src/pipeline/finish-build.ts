import { rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { DESCRIBE_TIMEOUT_MS, type Manifest } from "@executa/core";
import { type ArchiveResult, createArchive } from "../emit/archive.js";
import { distributionManifest, LIB_DIR } from "../emit/binary-manifest.js";
import { EXECUTA_JSON, executaJson, readAuthoredExecutaJson } from "../emit/executa-json.js";
import type { McpbResult } from "../emit/mcpb.js";
import { checkMcpbFallback } from "../emit/mcpb-fallback.js";
import { packMcpbBundles } from "../emit/mcpb-step.js";
import { renameBundle } from "../emit/rename-bundle.js";
import { ExecutaBuildError, isBuildError } from "../errors/build-error.js";
import { copyNativeAddons, type NativeAddon } from "../native/index.js";
import { NOTICES_FILE, SBOM_FILE } from "../notices/binary-contents.js";
import { type EmbeddedPackage, embeddedPackages } from "../notices/embedded-packages.js";
import { binaryRootFiles } from "../notices/root-files.js";
import { hostPlatform } from "../platform/platform-key.js";
import {
  type KnownPlatform,
  resolveTargets,
  type TargetPlatform,
  targetPlatform,
} from "../platform/platforms.js";
import { formatBytes, formatMs } from "../report/format.js";
import { nextSteps } from "../report/next-steps.js";
import { createReporter, isQuiet, type Reporter } from "../report/reporter.js";
import type { RuntimeOptions } from "../runtime/runtime.js";
import type { RuntimeChoice } from "../runtime/runtimes.js";
import { describeSource } from "../source/describe-source.js";
import { sourceRunFailure } from "../source/source-failure.js";
import type { DescribeReport } from "../verify/describe-artifact.js";
import { readToolSchemas, type ToolSchemas } from "../verify/mcp-answers.js";
import { verifyArtifact } from "../verify/verify-artifact.js";
import { buildTargets, type TargetBuild } from "./build-targets.js";
import {
  checkOneVersion,
  checkSurface,
  releasedSurfaceFile,
  surfaceFileOf,
  writeSurface,
} from "./surface-check.js";

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
  /**
   * Also write an MCP bundle per binary, `NAME-<platform>.mcpb` with its sha256, for
   * desktop clients that install `.mcpb` files. Default false.
   */
  mcpb?: boolean;
  /** The bundles' PNG icon. Default: the project's `icon.png` when there is one, else none. */
  mcpbIcon?: string;
  /**
   * Pack `.mcpb` bundles even when `host_capabilities` needs storage or files and the
   * plugin serves MCP without a fallback for them (`mcpLocalFallback()`), with a warning;
   * by default such a build fails (`MCPB_NO_FALLBACK`): every storage tool would fail once installed.
   */
  mcpbWithoutFallback?: boolean;
  /** A folder shipped as `data/` in every archive (`EXECUTA_DATA` at run time). */
  dataDir?: string;
  /** Native addons the bundle loads, found while bundling; shipped in `lib/`. */
  nativeAddons?: readonly NativeAddon[];
  /**
   * The files the bundle embeds (absolute; from esbuild's metafile, as the `executa`
   * preset passes them): each archive and `.mcpb` then holds the licence notices and a CycloneDX SBOM
   * of the packages they belong to and of its runtime. Without it, neither is written.
   */
  bundleInputs?: readonly string[];
  /** Where the author's own `executa.json`, `executa.surface.json` and `package.json` are looked for. Default: the working directory. */
  projectDir?: string;
  /**
   * The released tool surface to compare with (a manifest, `executa.surface.json`,
   * `executa.json` or a release archive); a change that breaks its callers without the
   * version bump it needs fails the build (`BREAKING_CHANGE`). Default: the project's
   * `executa.surface.json` when there is one; `false` compares with nothing.
   */
  compat?: string | false;
  /** After a good build, write its tool surface to the project's `executa.surface.json` (a release). */
  release?: boolean;
  /**
   * After a good build, write its tool surface (output schemas included) to this file, as
   * `release` would record it, without recording a release: what a pull request's check
   * compares with the released surface.
   */
  surfaceOut?: string;
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

/** One platform's MCP bundle. */
export type PlatformMcpbResult = McpbResult & { platform: KnownPlatform };

/** Everything a build produced. Paths are absolute. */
export interface BuildExecutablesResult {
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
  /** One MCP bundle per binary with the `mcpb` option, else none. */
  mcpbBundles: PlatformMcpbResult[];
  manifestPath: string;
  /** `executa.json` in the agent's shape. */
  executaJsonPath: string;
  /** Non-fatal remarks. */
  notes: string[];
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The build after bundling: the manifest from source, the bundle renamed to `NAME.cjs`
 * and verified against it, a binary per target platform built and verified, then
 * `manifest.json`, an archive per platform with its sha256, and `executa.json`. Prints a
 * short report unless quiet. Throws an {@link ExecutaBuildError} at the first failure, and
 * removes what it wrote: a failed build leaves nothing to ship.
 */
export async function finishBuild(options: FinishBuildOptions): Promise<BuildExecutablesResult> {
  const outputs = new Set<string>([resolve(options.bundle), `${resolve(options.bundle)}.map`]);
  try {
    return await runSteps(options, outputs);
  } catch (error) {
    await Promise.all([...outputs].map((path) => rm(path, { recursive: true, force: true })));
    throw error;
  }
}

/** What the steps share: the options, where output goes, the report, what was written. */
interface StepContext {
  options: FinishBuildOptions;
  outDir: string;
  report: Reporter;
  shown: (path: string) => string;
  run: { cwd?: string; env?: NodeJS.ProcessEnv };
  outputs: Set<string>;
  notes: string[];
}

/**
 * One build as the steps fill it in: each step reads what the steps before it set
 * (the order of {@link BUILD_STEPS} guarantees it) and sets its own.
 */
interface BuildRun extends StepContext {
  started: number;
  targets: TargetPlatform[];
  source: DescribeReport & { entry: string };
  /** The artifact name: the option, else the manifest's. */
  name: string;
  bundle: VerifiedFile & { manifest: Manifest };
  binaries: TargetBuild[];
  distributed: Manifest;
  manifestPath: string;
  archives: PlatformArchiveResult[];
  mcpbBundles: PlatformMcpbResult[];
  executaJsonPath: string;
  /** The packages the bundle embeds; undefined without the bundle's inputs. */
  embedded?: EmbeddedPackage[];
  /** Each tool's MCP input and output schemas, read from the bundle: part of the released surface. */
  toolSchemas?: ToolSchemas;
}

/** A step of the build and its name (its report lines and failures name their own `step`). */
interface BuildStep {
  name: string;
  run(build: BuildRun): Promise<void>;
}

/** The build after bundling, in order. */
const BUILD_STEPS: readonly BuildStep[] = [
  { name: "source", run: describeFromSource },
  { name: "bundle", run: verifyBundle },
  { name: "mcpb check", run: checkMcpbFallback },
  { name: "compat", run: compareWithRelease },
  { name: "binaries", run: buildBinaries },
  { name: "manifest", run: writeDistributedManifest },
  { name: "notices", run: readEmbeddedPackages },
  { name: "archive", run: packArchives },
  { name: "mcpb", run: packMcpbBundles },
  { name: "executa.json", run: writeExecutaJson },
  { name: "release", run: recordRelease },
];

async function runSteps(options: FinishBuildOptions, outputs: Set<string>): Promise<BuildExecutablesResult> {
  const build = startRun(options, outputs);
  for (const step of BUILD_STEPS) await step.run(build);
  const { report, shown, name, source } = build;
  report.step("manifest", `${shown(build.manifestPath)}, ${shown(build.executaJsonPath)}`);
  for (const note of build.notes) report.note(note);
  report.done(
    `done: ${name} ${source.manifest.version} (verified and packed in ${formatMs(performance.now() - build.started)})`,
  );
  const hostBinary = build.binaries.find((binary) => binary.platform === hostPlatform())?.path;
  report.next(nextSteps({ hostBinary, bundle: build.bundle.path }));
  return resultOf(build);
}

/** The run before any step: the context, and the targets checked up front. */
function startRun(options: FinishBuildOptions, outputs: Set<string>): BuildRun {
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
  if (options.mcpb && options.binary === false) {
    throw new ExecutaBuildError(
      "INVALID_OPTIONS",
      "an .mcpb bundle holds a binary: drop --no-binary (binary: false) or the mcpb option",
      { step: "setup" },
    );
  }
  const targets = options.binary === false ? [] : checkedTargets(options);
  // The steps set the rest, in the order of BUILD_STEPS.
  return {
    ...context,
    started: performance.now(),
    targets,
    binaries: [],
    archives: [],
    mcpbBundles: [],
  } as unknown as BuildRun;
}

function resultOf(build: BuildRun): BuildExecutablesResult {
  const { bundle, source } = build;
  return {
    name: build.name,
    version: source.manifest.version,
    manifest: bundle.manifest,
    distributedManifest: build.distributed,
    source: { entry: source.entry, describeMs: source.describeMs },
    bundle: {
      path: bundle.path,
      size: bundle.size,
      sourceMap: `${bundle.path}.map`,
      describeMs: bundle.describeMs,
    },
    binaries: build.binaries,
    archives: build.archives,
    mcpbBundles: build.mcpbBundles,
    manifestPath: build.manifestPath,
    executaJsonPath: build.executaJsonPath,
    notes: build.notes,
  };
}

/** Runs the entry from source for the reference manifest, and settles the artifact name. */
async function describeFromSource(build: BuildRun): Promise<void> {
  const entry = resolve(build.options.entry);
  try {
    build.source = { ...(await describeSource(entry, build.run)), entry };
  } catch (error) {
    throw sourceRunFailure(entry, error);
  }
  const manifest = build.source.manifest;
  build.name = build.options.name ?? manifest.name;
  if (!SAFE_NAME.test(build.name)) {
    throw new ExecutaBuildError(
      "INVALID_OPTIONS",
      `"${build.name}" cannot name the build's files; use letters, digits, ".", "_" and "-" (set the manifest name or the name option)`,
      { step: "setup" },
    );
  }
  build.report.start(`${manifest.name} ${manifest.version}`);
  build.report.step(
    "source",
    `${build.shown(entry)}: ${manifest.tools.length} tool(s), describe ${formatMs(build.source.describeMs)}`,
  );
}

/** One version, and a tool surface that keeps the released one's callers working unless the version says otherwise. */
async function compareWithRelease(build: BuildRun): Promise<void> {
  const { manifest } = build.source;
  checkOneVersion(manifest, build.options.projectDir);
  // Only when a surface is compared or recorded: the bundle is asked once more, in MCP.
  if (surfaceFileOf(build.options) || build.options.release || build.options.surfaceOut) {
    build.toolSchemas = await readToolSchemas(
      { command: process.execPath, args: [build.bundle.path], ...build.run },
      build.options.describeTimeoutMs ?? DESCRIBE_TIMEOUT_MS,
    );
  }
  const report = await checkSurface(manifest, build.options, build.toolSchemas);
  if (!report) return;
  const breaking = report.changes.filter((change) => change.kind === "breaking").length;
  build.report.step(
    "compat",
    `${report.changes.length} change(s) since ${report.verdict.from}, ${breaking} breaking (${report.verdict.to} needs ${report.verdict.minimum} at least)`,
  );
}

/** `--release`: the built surface becomes the released one; `surfaceOut`: it is written there too. */
async function recordRelease(build: BuildRun): Promise<void> {
  const { manifest } = build.source;
  if (build.options.surfaceOut) {
    const file = await writeSurface(manifest, resolve(build.options.surfaceOut), build.toolSchemas);
    build.report.step("surface", `${build.shown(file)}: the tool surface of ${manifest.version}`);
  }
  if (!build.options.release) return;
  const file = await writeSurface(manifest, releasedSurfaceFile(build.options), build.toolSchemas);
  build.report.step("release", `${build.shown(file)} records ${manifest.version}`);
}

/** A binary per target, each verified (see `buildTargets`). */
async function buildBinaries(build: BuildRun): Promise<void> {
  const { options } = build;
  if (build.targets.length === 0) return;
  build.binaries = await buildTargets({
    bundle: build.bundle.path,
    name: build.name,
    outDir: build.outDir,
    manifest: build.source.manifest,
    targets: build.targets,
    runtime: options.runtime,
    runtimeOptions: options,
    nativeAddons: [...new Set((options.nativeAddons ?? []).map((addon) => addon.packageName))],
    describeTimeoutMs: options.describeTimeoutMs ?? DESCRIBE_TIMEOUT_MS,
    run: build.run,
    report: build.report,
    shown: build.shown,
    outputs: build.outputs,
  });
}

/** `manifest.json`: exactly what the built artifact answered, with `runtime.binary` when binaries were built. */
async function writeDistributedManifest(build: BuildRun): Promise<void> {
  const { options, binaries, bundle } = build;
  const layout = { lib: (options.nativeAddons?.length ?? 0) > 0, data: options.dataDir !== undefined };
  build.distributed =
    binaries.length > 0
      ? distributionManifest(
          bundle.manifest,
          build.name,
          binaries.map((binary) => binary.platform),
          layout,
        )
      : bundle.manifest;
  build.manifestPath = join(build.outDir, MANIFEST_FILE);
  build.outputs.add(build.manifestPath);
  await writeFile(build.manifestPath, `${JSON.stringify(build.distributed, null, 2)}\n`);
}

function checkedTargets(options: FinishBuildOptions): TargetPlatform[] {
  try {
    return resolveTargets(options.targets);
  } catch (error) {
    throw new ExecutaBuildError("INVALID_OPTIONS", (error as Error).message, { step: "setup", cause: error });
  }
}

/** Renames the bundle, ships its native addons beside it, and verifies it against the source. */
async function verifyBundle(build: BuildRun): Promise<void> {
  const { options, report, shown, outputs } = build;
  const bundleFile = join(dirname(resolve(options.bundle)), `${build.name}.cjs`);
  outputs.add(bundleFile).add(`${bundleFile}.map`);
  const path = await renameBundle(resolve(options.bundle), build.name);
  const size = (await stat(path)).size;
  const mapSize = await stat(`${path}.map`).then(
    (s) => s.size,
    () => 0,
  );
  report.step("bundle", `${shown(path)}  ${formatBytes(size)} (source map ${formatBytes(mapSize)})`);
  await shipNativeAddons(build, dirname(path));
  const check = await verifyArtifact(
    { command: process.execPath, args: [path], ...build.run },
    build.source.manifest,
    {
      step: "verify bundle",
      label: shown(path),
      timeoutMs: options.describeTimeoutMs ?? DESCRIBE_TIMEOUT_MS,
    },
  );
  report.step("verify bundle", `manifest matches source · describe ${formatMs(check.describeMs)}`);
  build.bundle = { path, size, describeMs: check.describeMs, manifest: check.manifest };
}

/** The native addons the bundle loads, copied to `lib/` beside it. */
async function shipNativeAddons(build: BuildRun, folder: string): Promise<void> {
  const addons = build.options.nativeAddons ?? [];
  if (addons.length === 0) return;
  const lib = join(folder, LIB_DIR);
  build.outputs.add(lib);
  await copyNativeAddons(addons, folder);
  build.report.step(
    "native",
    `${build.shown(lib)}: ${addons.map((addon) => `${addon.libName} (${addon.packageName})`).join(", ")}`,
  );
}

/** The packages the bundle embeds (fails on one without a licence), for each archive's notices and SBOM. */
async function readEmbeddedPackages(build: BuildRun): Promise<void> {
  const { options, report } = build;
  if (!options.bundleInputs || build.binaries.length === 0) return;
  build.embedded = embeddedPackages(options.bundleInputs, options.projectDir ?? process.cwd());
  const licenses = [...new Set(build.embedded.map((found) => found.license))].sort();
  report.step(
    "notices",
    `${build.embedded.length} embedded package(s): ${licenses.join(", ") || "none"}; ${NOTICES_FILE} and ${SBOM_FILE} in each archive${options.mcpb ? " and .mcpb" : ""}`,
  );
}

/** An archive per binary, with its sha256. */
async function packArchives(build: BuildRun): Promise<void> {
  const { options, outDir, report, shown, outputs } = build;
  const libDir = (options.nativeAddons?.length ?? 0) > 0 ? join(outDir, LIB_DIR) : undefined;
  for (const binary of build.binaries) {
    const archive = await createArchive({
      outDir,
      name: build.name,
      platform: targetPlatform(binary.platform),
      manifest: build.distributed,
      binary: binary.path,
      libDir,
      dataDir: options.dataDir ? resolve(options.dataDir) : undefined,
      rootFiles: binaryRootFiles(build, binary),
    });
    outputs.add(archive.path).add(archive.sha256Path);
    build.archives.push({ ...archive, platform: binary.platform });
    report.step("archive", `${shown(archive.path)}  ${formatBytes(archive.size)}`, [
      `sha256 ${archive.sha256}`,
      `size   ${archive.size}`,
    ]);
  }
}

/** `executa.json` in the agent's shape, merged with the author's own. */
async function writeExecutaJson(build: BuildRun): Promise<void> {
  const { options, archives } = build;
  const path = join(build.outDir, EXECUTA_JSON);
  build.outputs.add(path);
  const here = hostPlatform();
  const local = archives.find((archive) => archive.platform === here);
  const authored = await readAuthoredExecutaJson(resolve(options.projectDir ?? process.cwd())).catch(
    (error: unknown) => {
      throw asManifestStepError(error);
    },
  );
  try {
    const built = executaJson({
      manifest: build.source.manifest,
      executableName: build.name,
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
    build.notes.push(...built.notes);
    await writeFile(path, `${JSON.stringify(built.json, null, 2)}\n`);
  } catch (error) {
    throw asManifestStepError(error);
  }
  build.executaJsonPath = path;
}

/** A failure writing `executa.json` as the `manifest` step's, keeping its code. */
function asManifestStepError(error: unknown): ExecutaBuildError {
  const code = isBuildError(error) ? error.code : "EXECUTA_JSON_INVALID";
  const details = isBuildError(error) ? error.details : {};
  return new ExecutaBuildError(code, (error as Error).message, {
    ...details,
    step: "manifest",
    cause: error,
  });
}
