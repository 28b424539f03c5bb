import { chmod, copyFile, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { ExecutaBuildError } from "../errors/build-error.js";
import { type BinaryPlatform, hostPlatform, platformOfBinary } from "../platform/platform-key.js";
import { run } from "../util/run.js";
import { nodeVersionOfBinary } from "./node-version.js";

/** The fuse postject flips so that node looks for the injected blob. */
export const SEA_SENTINEL_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
/** Resource (section) name node reads the blob from. */
export const SEA_RESOURCE_NAME = "NODE_SEA_BLOB";
/** Mach-O segment node reads the blob from on macOS. */
export const SEA_MACHO_SEGMENT = "NODE_SEA";

/** Options of {@link buildSea}. */
export interface SeaOptions {
  /** The CommonJS bundle to embed (SEA main must be CommonJS on Node 20). */
  main: string;
  /** Where the executable goes. */
  output: string;
  /** The node binary to embed into; the running node by default. May be another platform's. */
  nodeBinary?: string;
  /**
   * Embed V8's code cache of `main` (faster start). Default: on when the target binary
   * runs on this machine; forced off for another platform's binary, whose V8 cannot use
   * a cache made here.
   */
  useCodeCache?: boolean;
}

/** What {@link buildSea} made. */
export interface SeaResult {
  path: string;
  size: number;
  platform: BinaryPlatform;
  /** Node version of the embedded runtime, when the binary tells. */
  nodeVersion: string | undefined;
  usedCodeCache: boolean;
  /** True when the binary can run here (same platform), so it can be verified. */
  runnableHere: boolean;
  /** Things the user should know, e.g. a macOS binary that could not be signed here. */
  notes: string[];
}

/**
 * Builds a Node single-executable application: writes the SEA config, has node prepare
 * the blob (`--experimental-sea-config`), copies the node binary, injects the blob with
 * postject (in a child process: postject's WebAssembly module installs process-wide
 * exception handlers and holds the whole binary in memory), and on macOS removes the
 * signature before and signs ad hoc after.
 *
 * The blob must come from the same Node version as the binary it goes into: a target
 * binary that runs here makes its own blob; for another platform's binary the running
 * node makes it, and the versions must match.
 */
export async function buildSea(options: SeaOptions): Promise<SeaResult> {
  const step = "binary";
  const nodeBinary = resolve(options.nodeBinary ?? process.execPath);
  const output = resolve(options.output);
  let platform: BinaryPlatform;
  try {
    platform = await platformOfBinary(nodeBinary);
  } catch (error) {
    throw new ExecutaBuildError(step, (error as Error).message, { cause: error });
  }
  const runnableHere = platform.key === hostPlatform();
  const nodeVersion = await nodeVersionOfBinary(nodeBinary);
  const notes: string[] = [];
  if (!runnableHere) {
    if (nodeVersion && nodeVersion !== process.version) {
      throw new ExecutaBuildError(
        step,
        `${nodeBinary} is Node ${nodeVersion}, but the SEA blob would be prepared by this Node ${process.version}; ` +
          `they must be the same version. Run the build with Node ${nodeVersion}, or pass a ${process.version} binary.`,
      );
    }
    if (!nodeVersion) {
      notes.push(`cannot tell the Node version of ${nodeBinary}; it must be ${process.version}`);
    }
  }
  const useCodeCache = runnableHere ? (options.useCodeCache ?? true) : false;
  const work = await mkdtemp(join(tmpdir(), "executa-sea-"));
  try {
    const blob = join(work, "sea-prep.blob");
    const config = join(work, "sea-config.json");
    await writeFile(
      config,
      JSON.stringify({
        main: resolve(options.main),
        output: blob,
        disableExperimentalSEAWarning: true,
        useSnapshot: false,
        useCodeCache,
      }),
    );
    const generator = runnableHere ? nodeBinary : process.execPath;
    await must(step, "preparing the SEA blob", generator, ["--experimental-sea-config", config], work);

    // The binary is made in the work folder and copied into place at the end, so `output`
    // never holds a half-made binary, and so that its pages are written in small chunks:
    // postject writes the whole file in one call, which Linux (6.x, ext4) caches in large
    // folios, and a process mapping such a freshly written binary gets whole folios mapped:
    // ~14 MiB more resident memory (measured 53.4 vs 41 MiB idle) until the cache is evicted.
    const staged = join(work, "executable");
    await copyFile(nodeBinary, staged);
    const darwin = platform.os === "darwin";
    const canSign = darwin && process.platform === "darwin";
    if (canSign) await must(step, "removing the signature", "codesign", ["--remove-signature", staged]);
    await must(step, "injecting the blob (postject)", process.execPath, [
      postjectCli(),
      staged,
      SEA_RESOURCE_NAME,
      blob,
      "--sentinel-fuse",
      SEA_SENTINEL_FUSE,
      ...(darwin ? ["--macho-segment-name", SEA_MACHO_SEGMENT] : []),
    ]);
    if (canSign) await must(step, "signing (ad hoc)", "codesign", ["--sign", "-", staged]);
    await rm(output, { force: true });
    await copyFile(staged, output);
    await chmod(output, 0o755);
    if (darwin && !canSign) {
      notes.push(
        `macOS binary left unsigned (no codesign here): run \`codesign --sign - ${output}\` on a Mac`,
      );
    }
    const { size } = await stat(output);
    return { path: output, size, platform, nodeVersion, usedCodeCache: useCodeCache, runnableHere, notes };
  } catch (error) {
    await rm(output, { force: true });
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function postjectCli(): string {
  return join(dirname(createRequire(import.meta.url).resolve("postject")), "cli.js");
}

async function must(
  step: string,
  what: string,
  command: string,
  args: string[],
  cwd?: string,
): Promise<void> {
  let result: Awaited<ReturnType<typeof run>>;
  try {
    result = await run(command, args, { cwd });
  } catch (error) {
    throw new ExecutaBuildError(step, `${what} failed: cannot run ${command}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (result.code !== 0) {
    const output = result.output
      .split("\n")
      .filter((line) => line.trim() && !line.includes("Can't find string offset for section name"))
      .slice(-20)
      .map((line) => `    ${line}`)
      .join("\n");
    throw new ExecutaBuildError(
      step,
      `${what} failed (${command} exited ${result.code ?? result.signal}):\n${output}`,
    );
  }
}
