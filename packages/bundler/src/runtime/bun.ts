import { existsSync } from "node:fs";
import { chmod, copyFile, readFile, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import {
  BUN_CODE_ENVIRONMENT_VARIABLES,
  type ByteRange,
  disableEnvironmentVariablesInFile,
} from "../harden/disable-environment-variables.js";
import { RUNTIME_HAS_SQLITE } from "../native/runtime-has-sqlite.js";
import type { TargetPlatform } from "../platform/platforms.js";
import { run } from "../util/run.js";
import {
  type PreparedTarget,
  type Runtime,
  type RuntimeBuild,
  type RuntimeBuildInput,
  type RuntimeOptions,
} from "./runtime.js";
import { RuntimeFailure } from "./runtime-failure.js";

/** Bun's virtual folder of the modules inside a compiled executable. */
const BUNFS_ROOT = "/$bunfs/root";
/** What ends the module graph Bun appends to a compiled executable. */
const BUN_TRAILER = Buffer.from("\n---- Bun! ----\n");
/** Size of the offsets record just before the trailer. */
const OFFSETS_SIZE = 32;
/** Size of one module record of the graph (Bun 1.x). */
const MODULE_RECORD_SIZE = 52;

/**
 * Bun executables (`bun build --compile`): Bun cross-compiles to every platform from
 * one machine, fetching the target's Bun from the npm registry (and caching it under
 * `~/.bun/install/cache`). The bundle is compiled as CommonJS, with `.env` and
 * `bunfig.toml` autoloading off (a plugin must not change with the folder it is started
 * in), and `__dirname`/`__filename` set to Bun's virtual folder: Bun would otherwise
 * write the build machine's folder into the binary.
 */
export const bunRuntime: Runtime = {
  // Bun is MIT-licensed and links JavaScriptCore (WebKit), which is LGPL-2.0 or later.
  about: {
    title: "Bun",
    license: "MIT AND LGPL-2.0-or-later",
    licenseUrl: "https://github.com/oven-sh/bun/blob/main/LICENSE.md",
  },

  async prepare(target: TargetPlatform, options: RuntimeOptions): Promise<PreparedTarget> {
    const bun = await locateBun(options.bunPath);
    return {
      runtimeVersion: bun.version,
      build: (input) => buildBun(bun, target, input, options.bunBytecode !== false),
    };
  },

  async embeddedCode(binary: string): Promise<Buffer> {
    return readBunEntryPoint(await readFile(binary), binary);
  },
};

interface FoundBun {
  path: string;
  version: string;
}

/** The Bun compiler: `bunPath`, else the `bun` package of the project or of the bundler, else `bun` on PATH. */
async function locateBun(bunPath: string | undefined): Promise<FoundBun> {
  const candidates = bunPath ? [bunPath] : [...bunFromPackages(), "bun"];
  const tried: string[] = [];
  for (const candidate of candidates) {
    const version = await bunVersion(candidate);
    if (version) return { path: candidate, version };
    tried.push(candidate);
  }
  throw new RuntimeFailure(
    "TARGET_UNAVAILABLE",
    `no Bun to compile with; tried ${tried.join(", ")}. Add the \`bun\` package to the project's ` +
      "devDependencies (and to pnpm.onlyBuiltDependencies under pnpm), give bunPath / --bun, or choose the node runtime.",
  );
}

function bunFromPackages(): string[] {
  const found: string[] = [];
  for (const from of [join(process.cwd(), "package.json"), import.meta.url]) {
    try {
      const root = dirname(createRequire(from).resolve("bun/package.json"));
      // The package's install script puts the platform's binary here.
      const binary = join(root, "bin", "bun.exe");
      if (existsSync(binary) && !found.includes(binary)) found.push(binary);
    } catch {
      // not installed there
    }
  }
  return found;
}

async function bunVersion(bun: string): Promise<string | undefined> {
  try {
    const result = await run(bun, ["--version"]);
    const version = result.output.trim();
    return result.code === 0 && /^\d+\.\d+\.\d+/.test(version) ? version : undefined;
  } catch {
    return undefined;
  }
}

async function buildBun(
  bun: FoundBun,
  target: TargetPlatform,
  input: RuntimeBuildInput,
  bytecode: boolean,
): Promise<RuntimeBuild> {
  const main = basename(input.bundle);
  const staged = join(input.workDir, `executable${target.exeSuffix}`);
  const args = [
    "build",
    input.bundle,
    "--compile",
    `--target=${target.bunTarget}`,
    "--format=cjs",
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
    "--define",
    `__dirname=${JSON.stringify(BUNFS_ROOT)}`,
    "--define",
    `__filename=${JSON.stringify(`${BUNFS_ROOT}/${main}`)}`,
    // Bun has bun:sqlite, so the local store's WebAssembly SQLite is never loaded: its bytes stay out.
    "--define",
    `${RUNTIME_HAS_SQLITE}=true`,
    ...(bytecode ? ["--bytecode"] : []),
    "--outfile",
    staged,
  ];
  const result = await run(bun.path, args, { cwd: input.workDir }).catch((error: Error) => {
    throw new Error(`cannot run ${bun.path}: ${error.message}`, { cause: error });
  });
  if (result.code !== 0) {
    const output = result.output
      .trim()
      .split("\n")
      .slice(-20)
      .map((line) => `    ${line}`)
      .join("\n");
    throw new Error(
      `bun build --compile --target=${target.bunTarget} exited ${result.code ?? result.signal}:\n${output}`,
    );
  }
  // Bun reads these before any JavaScript: a plugin must not load code, open a debugger or
  // turn into the Bun CLI from whatever environment it is started in. The plugin's own code
  // (the module graph) is left untouched.
  await disableEnvironmentVariablesInFile(staged, BUN_CODE_ENVIRONMENT_VARIABLES, (file) =>
    bunModuleGraphRange(file),
  ).catch((error: Error) => {
    throw new Error(`hardening the ${target.bunTarget} executable failed: ${error.message}`, {
      cause: error,
    });
  });
  await rm(input.output, { force: true });
  await copyFile(staged, input.output);
  await chmod(input.output, 0o755);
  const { size } = await stat(input.output);
  return { path: input.output, size, detail: `Bun ${bun.version}${bytecode ? ", bytecode" : ""}`, notes: [] };
}

/**
 * The entry point's source inside a Bun executable: the module graph ends with
 * `---- Bun! ----`, preceded by its offsets (byte count, then the module list's offset
 * and length, then the entry point's index); each module record starts with four
 * (offset, length) pairs: name, contents, source map, bytecode. Throws when `file` holds
 * no graph that parses.
 */
export function readBunEntryPoint(file: Buffer, label: string): Buffer {
  const graph = findModuleGraph(file);
  if (!graph) throw new Error(`cannot read the embedded code of ${label}: no Bun module graph found`);
  return graph.entryPoint;
}

/** Where the module graph (the application, not Bun itself) lies in a Bun executable. */
export function bunModuleGraphRange(file: Buffer): ByteRange | undefined {
  return findModuleGraph(file)?.range;
}

/** The last trailer whose graph parses (an earlier one may be text inside the graph). */
function findModuleGraph(file: Buffer): { entryPoint: Buffer; range: ByteRange } | undefined {
  for (
    let at = file.lastIndexOf(BUN_TRAILER);
    at !== -1;
    at = at === 0 ? -1 : file.lastIndexOf(BUN_TRAILER, at - 1)
  ) {
    const entryPoint = entryPointAt(file, at);
    if (!entryPoint) continue;
    const byteCount = Number(file.readBigUInt64LE(at - OFFSETS_SIZE));
    return { entryPoint, range: { start: at - OFFSETS_SIZE - byteCount, end: at + BUN_TRAILER.length } };
  }
  return undefined;
}

function entryPointAt(file: Buffer, trailer: number): Buffer | undefined {
  const offsets = trailer - OFFSETS_SIZE;
  if (offsets < 0) return undefined;
  const byteCount = Number(file.readBigUInt64LE(offsets));
  const modulesOffset = file.readUInt32LE(offsets + 8);
  const modulesLength = file.readUInt32LE(offsets + 12);
  const entryPoint = file.readUInt32LE(offsets + 16);
  const start = offsets - byteCount;
  const inGraph = (offset: number, length: number) => offset + length <= byteCount;
  if (start < 0 || modulesLength % MODULE_RECORD_SIZE !== 0 || !inGraph(modulesOffset, modulesLength))
    return undefined;
  if (entryPoint >= modulesLength / MODULE_RECORD_SIZE) return undefined;
  const record = start + modulesOffset + entryPoint * MODULE_RECORD_SIZE;
  const contentsOffset = file.readUInt32LE(record + 8);
  const contentsLength = file.readUInt32LE(record + 12);
  if (contentsLength === 0 || !inGraph(contentsOffset, contentsLength)) return undefined;
  return file.subarray(start + contentsOffset, start + contentsOffset + contentsLength);
}
