import { rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { DESCRIBE_TIMEOUT_MS, type Manifest } from "@executa/core";
import { type ArchiveResult, createArchive } from "../emit/archive.js";
import { binaryFileName, distributionManifest } from "../emit/binary-manifest.js";
import { REGISTRATION_FILE, registrationOf, writeRegistration } from "../emit/registration.js";
import { renameBundle } from "../emit/rename-bundle.js";
import { ExecutaBuildError } from "../errors/build-error.js";
import { hostPlatform, type PlatformKey, platformOfBinary } from "../platform/platform-key.js";
import { formatBytes, formatMs } from "../report/format.js";
import { createReporter, isQuiet } from "../report/reporter.js";
import { buildSea, type SeaResult } from "../sea/build-sea.js";
import { describeSource } from "../source/describe-source.js";
import { ArtifactCheckError } from "../verify/artifact-check-error.js";
import type { DescribeReport } from "../verify/describe-artifact.js";
import { verifyArtifact } from "../verify/verify-artifact.js";

/** File name of the distributed manifest in the output folder (and at the archive's root). */
export const MANIFEST_FILE = "manifest.json";

/** Options of {@link finishBuild}: everything after esbuild wrote the bundle. */
export interface FinishBuildOptions {
  /** The plugin's TypeScript entry; run from source for the reference manifest. */
  entry: string;
  /** The CommonJS bundle tsup wrote. It is renamed to `NAME.cjs`. */
  bundle: string;
  /** The output folder (`dist`). */
  outDir: string;
  /** Artifact name (files, archive, entrypoint). Default: the manifest's `name`. */
  name?: string;
  /** The node binary to embed; the running node by default. Another platform's binary is fine. */
  nodeBinary?: string;
  /** Build the executable and the archive. Default true. */
  binary?: boolean;
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

/** Everything a build produced. Paths are absolute. */
export interface BuildResult {
  name: string;
  version: string;
  /** The manifest every artifact answered (equal to the one from source). */
  manifest: Manifest;
  /** The distributed manifest, with `runtime.binary` when a binary was built. */
  distributedManifest: Manifest;
  /** The source run: its describe time (includes compiling TypeScript). */
  source: { entry: string; describeMs: number };
  bundle: VerifiedFile & { sourceMap: string };
  /** The executable; `verified` is false when it was built for another platform. */
  binary?: VerifiedFile & {
    platform: PlatformKey;
    verified: boolean;
    nodeVersion?: string;
    usedCodeCache: boolean;
  };
  archive?: ArchiveResult;
  manifestPath: string;
  registrationPath: string;
  /** Non-fatal remarks (unsigned macOS binary, unverifiable cross-platform binary). */
  notes: string[];
}

const TYPE_IMPORT_HINT =
  "A class used as a parameter type must be imported as a value: `import type { X }` (which lint " +
  "fixes such as biome's useImportType produce) leaves design:paramtypes pointing at nothing, so it reads as Object.";

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The build after bundling: the manifest from source, the bundle renamed to `NAME.cjs`
 * and verified against it, the single executable built and verified, then
 * `manifest.json`, the archive with its sha256, and `executa.json`. Prints a short
 * report unless quiet. Throws an {@link ExecutaBuildError} at the first failure.
 */
export async function finishBuild(options: FinishBuildOptions): Promise<BuildResult> {
  // Outputs of this build, removed again when a step fails: a failed build leaves nothing to ship.
  const outputs = new Set<string>([resolve(options.bundle), `${resolve(options.bundle)}.map`]);
  try {
    return await runSteps(options, outputs);
  } catch (error) {
    await Promise.all([...outputs].map((path) => rm(path, { force: true })));
    throw error;
  }
}

async function runSteps(options: FinishBuildOptions, outputs: Set<string>): Promise<BuildResult> {
  const outDir = resolve(options.outDir);
  const entry = resolve(options.entry);
  const timeoutMs = options.describeTimeoutMs ?? DESCRIBE_TIMEOUT_MS;
  const report = createReporter({ quiet: isQuiet(options.quiet), write: options.write });
  const shown = (path: string) => {
    const near = relative(process.cwd(), path);
    return near && !near.startsWith("..") ? near : path;
  };
  const run = { cwd: options.cwd, env: options.env };
  const notes: string[] = [];
  const started = performance.now();

  const source = await fromSource(entry, run);
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
    `${shown(entry)}: ${manifest.tools.length} tool(s), describe ${formatMs(source.describeMs)}`,
  );

  const withBinary = options.binary !== false;
  const bundleFile = join(dirname(resolve(options.bundle)), `${name}.cjs`);
  outputs
    .add(bundleFile)
    .add(`${bundleFile}.map`)
    .add(join(outDir, MANIFEST_FILE))
    .add(join(outDir, REGISTRATION_FILE));
  const bundle = await renameBundle(resolve(options.bundle), name);
  const bundleSize = (await stat(bundle)).size;
  const mapSize = await stat(`${bundle}.map`).then(
    (s) => s.size,
    () => 0,
  );
  report.step("bundle", `${shown(bundle)}  ${formatBytes(bundleSize)} (source map ${formatBytes(mapSize)})`);
  const bundleCheck = await verifyArtifact({ command: process.execPath, args: [bundle], ...run }, manifest, {
    step: "verify bundle",
    label: shown(bundle),
    timeoutMs,
  });
  report.step("verify bundle", `manifest matches source · describe ${formatMs(bundleCheck.describeMs)}`);

  let sea: SeaResult | undefined;
  let binaryCheck: DescribeReport | undefined;
  let archive: ArchiveResult | undefined;
  let platform: PlatformKey = hostPlatform();
  if (withBinary) {
    const target = await platformOfBinary(resolve(options.nodeBinary ?? process.execPath)).catch(
      (error: Error) => {
        throw new ExecutaBuildError("binary", error.message, { cause: error });
      },
    );
    platform = target.key;
    const output = join(outDir, binaryFileName(name, platform));
    const archiveFile = join(outDir, `${name}-${platform}.tar.gz`);
    outputs.add(output).add(archiveFile).add(`${archiveFile}.sha256`);
    sea = await buildSea({ main: bundle, output, nodeBinary: options.nodeBinary });
    notes.push(...sea.notes);
    report.step(
      "binary",
      `${shown(sea.path)}  ${formatBytes(sea.size)} (${platform}, Node ${sea.nodeVersion ?? "?"}${sea.usedCodeCache ? ", code cache" : ""})`,
    );
    if (sea.runnableHere) {
      binaryCheck = await verifyArtifact({ command: sea.path, ...run }, manifest, {
        step: "verify binary",
        label: shown(sea.path),
        timeoutMs,
      });
      report.step("verify binary", `manifest matches source · describe ${formatMs(binaryCheck.describeMs)}`);
    } else {
      notes.push(
        `${shown(sea.path)} is for ${platform} and was not run here (this machine is ${hostPlatform()})`,
      );
    }
  }

  // Exactly what the built artifact answered (equal to the source's, as just verified).
  const described = bundleCheck.manifest;
  const distributed = withBinary ? distributionManifest(described, name, platform) : described;
  const manifestPath = join(outDir, MANIFEST_FILE);
  await writeFile(manifestPath, `${JSON.stringify(distributed, null, 2)}\n`);
  if (sea) {
    archive = await createArchive({ outDir, name, platform, manifest: distributed, binary: sea.path });
    report.step("archive", `${shown(archive.path)}  ${formatBytes(archive.size)}`, [
      `sha256 ${archive.sha256}`,
      `size   ${archive.size}`,
    ]);
  }
  const registrationPath = await writeRegistration(
    outDir,
    registrationOf({
      manifest,
      bundleFile: basename(bundle),
      manifestFile: MANIFEST_FILE,
      binary: sea ? { file: basename(sea.path), platform } : undefined,
      archive: archive
        ? {
            file: basename(archive.path),
            sha256: archive.sha256,
            size: archive.size,
            entrypoint: archive.entrypoint,
          }
        : undefined,
    }),
  );
  report.step("manifest", `${shown(manifestPath)}, ${shown(join(outDir, REGISTRATION_FILE))}`);
  for (const note of notes) report.note(note);
  report.done(
    `done: ${name} ${manifest.version} (verified and packed in ${formatMs(performance.now() - started)})`,
  );

  return {
    name,
    version: manifest.version,
    manifest: bundleCheck.manifest,
    distributedManifest: distributed,
    source: { entry, describeMs: source.describeMs },
    bundle: {
      path: bundle,
      size: bundleSize,
      sourceMap: `${bundle}.map`,
      describeMs: bundleCheck.describeMs,
    },
    binary: sea
      ? {
          path: sea.path,
          size: sea.size,
          platform,
          verified: binaryCheck !== undefined,
          nodeVersion: sea.nodeVersion,
          usedCodeCache: sea.usedCodeCache,
          describeMs: binaryCheck?.describeMs,
        }
      : undefined,
    archive,
    manifestPath,
    registrationPath,
    notes,
  };
}

async function fromSource(
  entry: string,
  run: { cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<DescribeReport> {
  try {
    return await describeSource(entry, run);
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
