import { chmod, copyFile, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import {
  disableEnvironmentVariablesInFile,
  NODE_CODE_ENVIRONMENT_VARIABLES,
} from "../harden/disable-environment-variables.js";
import { removeMachOSignature } from "../macho/adhoc-sign.js";
import { platformOfBinary } from "../platform/platform-key.js";
import type { TargetPlatform } from "../platform/platforms.js";
import { run } from "../util/run.js";
import { obtainNodeBinary } from "./node-binaries.js";
import { nodeVersionOfBinary } from "./node-version.js";
import {
  type PreparedTarget,
  type Runtime,
  type RuntimeBuild,
  type RuntimeBuildInput,
  type RuntimeOptions,
} from "./runtime.js";
import { RuntimeFailure } from "./runtime-failure.js";

/** The fuse postject flips so that node looks for the injected blob. */
export const SEA_SENTINEL_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
/** Resource (section) name node reads the blob from. */
export const SEA_RESOURCE_NAME = "NODE_SEA_BLOB";
/** Mach-O segment node reads the blob from on macOS. */
export const SEA_MACHO_SEGMENT = "NODE_SEA";
/** First word of a single-executable blob (Node's `kMagic`). */
const SEA_BLOB_MAGIC = 0x0143da20;
/** Flag bits a Node 20 blob may carry (warning off, snapshot, code cache, assets). */
const SEA_KNOWN_FLAGS = 0xf;

/**
 * Node single-executable applications: a copy of a Node binary of the target platform
 * with the bundle injected as a blob (`node --experimental-sea-config` + postject).
 *
 * The blob is version-bound: it is made by the running node, so the target's Node binary
 * must be the same version (found by {@link obtainNodeBinary}). Code cache only when the
 * binary runs natively here: the target binary then makes its own blob; V8 elsewhere
 * could not use a cache made by this machine's V8.
 */
export const nodeSea: Runtime = {
  about: {
    title: "Node.js",
    license: "MIT",
    licenseUrl: "https://github.com/nodejs/node/blob/main/LICENSE",
  },

  async prepare(target: TargetPlatform, options: RuntimeOptions): Promise<PreparedTarget> {
    const found = await obtainNodeBinary(target, process.version, options);
    await checkNodeBinary(target, found.path);
    return {
      runtimeVersion: process.version,
      build: (input) => buildSea(found.path, target, input),
    };
  },

  async embeddedCode(binary: string): Promise<Buffer> {
    return readSeaMain(await readFile(binary), binary);
  },
};

async function checkNodeBinary(target: TargetPlatform, nodeBinary: string): Promise<void> {
  const unavailable = (why: string) =>
    new RuntimeFailure("TARGET_UNAVAILABLE", `${nodeBinary} cannot make a ${target.key} binary: ${why}`);
  const platform = await platformOfBinary(nodeBinary).catch((error: Error) => {
    throw unavailable(error.message);
  });
  if (platform.key !== target.key) throw unavailable(`it is a ${platform.key} executable`);
  const version = await nodeVersionOfBinary(nodeBinary);
  if (version !== undefined && version !== process.version) {
    throw unavailable(
      `it is Node ${version}, and the blob is made by this Node ${process.version}; they must be the same ` +
        `version. Give a ${process.version} binary, or run the build with Node ${version}.`,
    );
  }
}

/** Makes the blob, injects it into a hardened copy of the target's Node binary, and puts that in place. */
async function buildSea(
  nodeBinary: string,
  target: TargetPlatform,
  input: RuntimeBuildInput,
): Promise<RuntimeBuild> {
  const blob = await prepareBlob(nodeBinary, input);
  // Made in the work folder and copied into place at the end, so `output` never holds a
  // half-made binary, and so that its pages are written in small chunks: postject writes the
  // whole file in one call, which Linux (6.x, ext4) caches in large folios, and a process
  // mapping such a freshly written binary gets whole folios mapped: ~14 MiB more resident
  // memory (measured 53.4 vs 41 MiB idle) until the cache is evicted.
  const staged = await stageHardenedNode(nodeBinary, target, input.workDir);
  await injectBlob(staged, blob, target);
  await rm(input.output, { force: true });
  await copyFile(staged, input.output);
  await chmod(input.output, 0o755);
  const { size } = await stat(input.output);
  return {
    path: input.output,
    size,
    detail: `Node ${process.version}${input.nativeHere ? ", code cache" : ""}`,
    notes: [],
  };
}

/**
 * The single-executable blob of the bundle (`node --experimental-sea-config`), with a
 * code cache when the binary runs natively here. Returns its path.
 */
async function prepareBlob(nodeBinary: string, input: RuntimeBuildInput): Promise<string> {
  // The blob records the main script's path as written in the config: a bare file name in
  // the work folder keeps the build machine's folders out of the binary.
  const main = basename(input.bundle);
  await copyFile(input.bundle, join(input.workDir, main));
  const config = join(input.workDir, "sea-config.json");
  const blob = "sea-prep.blob";
  await writeFile(
    config,
    JSON.stringify({
      main,
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: input.nativeHere,
    }),
  );
  // A native target makes its own blob (same V8 for the code cache); otherwise this node does.
  const generator = input.nativeHere ? nodeBinary : process.execPath;
  await must("preparing the SEA blob", generator, ["--experimental-sea-config", config], input.workDir);
  return join(input.workDir, blob);
}

/**
 * A copy of the Node binary in the work folder that ignores the environment variables
 * that load code, without its macOS signature. Returns its path.
 */
async function stageHardenedNode(
  nodeBinary: string,
  target: TargetPlatform,
  workDir: string,
): Promise<string> {
  const staged = join(workDir, "executable");
  await copyFile(nodeBinary, staged);
  await chmod(staged, 0o755);
  // NODE_OPTIONS is read by C++ before any JavaScript: a plugin must not load code (or open
  // the inspector) from whatever environment it is started in. Before the signature goes.
  await disableEnvironmentVariablesInFile(staged, NODE_CODE_ENVIRONMENT_VARIABLES).catch((error: Error) => {
    throw new Error(`hardening ${nodeBinary} failed: ${error.message}`, { cause: error });
  });
  // As `codesign --remove-signature` before injection: the pipeline signs the result afresh.
  if (target.os === "darwin") await removeMachOSignature(staged);
  return staged;
}

/** Injects the blob with postject and flips the fuse that makes node look for it. */
async function injectBlob(staged: string, blob: string, target: TargetPlatform): Promise<void> {
  await must("injecting the blob (postject)", process.execPath, [
    postjectCli(),
    staged,
    SEA_RESOURCE_NAME,
    blob,
    "--sentinel-fuse",
    SEA_SENTINEL_FUSE,
    ...(target.os === "darwin" ? ["--macho-segment-name", SEA_MACHO_SEGMENT] : []),
  ]);
}

/**
 * The main script of a single-executable blob inside `file`: the last place where a
 * blob header parses (magic, known flags, code path, then the script with a length that
 * fits the file). Throws when there is none.
 */
export function readSeaMain(file: Buffer, label: string): Buffer {
  const magic = Buffer.alloc(4);
  magic.writeUInt32LE(SEA_BLOB_MAGIC);
  for (let at = file.lastIndexOf(magic); at !== -1; at = at === 0 ? -1 : file.lastIndexOf(magic, at - 1)) {
    const main = parseBlobAt(file, at);
    if (main) return main;
  }
  throw new Error(`cannot read the embedded code of ${label}: no single-executable blob found`);
}

function parseBlobAt(file: Buffer, at: number): Buffer | undefined {
  let offset = at + 4;
  const field = (bytes: number) => (offset + bytes <= file.length ? offset : -1);
  if (field(4) < 0) return undefined;
  const flags = file.readUInt32LE(offset);
  if ((flags & ~SEA_KNOWN_FLAGS) !== 0) return undefined;
  offset += 4;
  const text = (): Buffer | undefined => {
    if (field(8) < 0) return undefined;
    const length = file.readBigUInt64LE(offset);
    if (length > BigInt(file.length - offset - 8)) return undefined;
    const start = offset + 8;
    offset = start + Number(length);
    return file.subarray(start, offset);
  };
  const codePath = text();
  if (!codePath || codePath.length === 0 || codePath.includes(0)) return undefined;
  return text();
}

function postjectCli(): string {
  return join(dirname(createRequire(import.meta.url).resolve("postject")), "cli.js");
}

async function must(what: string, command: string, args: string[], cwd?: string): Promise<void> {
  let result: Awaited<ReturnType<typeof run>>;
  try {
    result = await run(command, args, { cwd });
  } catch (error) {
    throw new Error(`${what} failed: cannot run ${command}: ${(error as Error).message}`, { cause: error });
  }
  if (result.code !== 0) {
    const output = result.output
      .split("\n")
      .filter((line) => line.trim() && !line.includes("Can't find string offset for section name"))
      .slice(-20)
      .map((line) => `    ${line}`)
      .join("\n");
    throw new Error(`${what} failed (${command} exited ${result.code ?? result.signal}):\n${output}`);
  }
}
