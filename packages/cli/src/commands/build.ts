import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  type BuildExecutablesOptions,
  buildExecutables,
  ExecutaBuildError,
  isKnownPlatform,
  KNOWN_PLATFORMS,
  type KnownPlatform,
  platformOfBinary,
  RUNTIME_NAMES,
  type RuntimeChoice,
  type RuntimeName,
} from "@executa/bundler";
import { type Command, InvalidArgumentError } from "commander";
import type { CliIO } from "../cli-io.js";
import { DEFAULT_ENTRIES } from "../dev/target.js";

interface BuildFlags {
  outDir: string;
  name?: string;
  binary: boolean;
  all?: boolean;
  target: string[];
  runtime: string[];
  node: string[];
  nodeMirror?: string;
  bun?: string;
  bytecode?: boolean;
  cacheDir?: string;
  releaseUrl?: string;
  data?: string;
  mcpb?: boolean;
  mcpbIcon?: string;
  mcpbWithoutFallback?: boolean;
  tsconfig?: string;
  decoratorMetadata: boolean;
  compat?: string | false;
  release?: boolean;
  surfaceOut?: string;
  quiet?: boolean;
}

const TSUP_CONFIGS = [
  "tsup.config.ts",
  "tsup.config.mts",
  "tsup.config.cts",
  "tsup.config.js",
  "tsup.config.mjs",
  "tsup.config.cjs",
  "tsup.config.json",
];

const collect = (value: string, previous: string[]) => [...previous, ...value.split(",").filter(Boolean)];

/**
 * `executa build [entry]`: the bundler's full build (one-file bundle, a binary per target
 * platform, manifest, archives, `executa.json`, each verified) for projects without a
 * tsup config of their own.
 */
export function registerBuildCommand(program: Command, io: CliIO): Command {
  const command = program
    .command("build")
    .summary("build a plugin into a bundle, binaries for each platform, manifests and archives")
    .description(
      "Builds a plugin with @executa/bundler, without a tsup.config.ts: dist/NAME.cjs (one file, every " +
        "dependency inlined), a binary per target platform, manifest.json, executa.json and an archive per " +
        "platform, each checked: run here when this machine can (natively or under QEMU), else from its bytes.",
    );
  return addBuildOptions(command).action(
    async (entryArg: string | undefined, flags: BuildFlags, command: Command) => {
      const cwd = process.cwd();
      const entry = entryOf(entryArg, cwd, command);
      const own = TSUP_CONFIGS.find((file) => existsSync(join(cwd, file)));
      if (own && !flags.quiet) {
        io.stderr.write(`note: ${own} is not read by executa build; run \`tsup\` to build with it\n`);
      }
      let options: BuildExecutablesOptions;
      try {
        options = await buildOptionsOf(entry, flags, io);
      } catch (error) {
        command.error(`error: ${(error as Error).message}`);
        return;
      }
      if (!(await runBuild(options, io))) process.exitCode = 1;
    },
  );
}

/** The entry and the flags of `executa build`. */
function addBuildOptions(command: Command): Command {
  return command
    .argument("[entry]", `the plugin's entry (default: ${DEFAULT_ENTRIES.join(" or ")})`)
    .option("-o, --out-dir <dir>", "output folder", "dist")
    .option("--name <name>", "artifact name (default: the manifest's name)")
    .option("--no-binary", "only the bundle and the manifests: no executables, no archives")
    .option("--all", `every platform the agent runs on (${KNOWN_PLATFORMS.join(", ")})`)
    .option(
      "-t, --target <platform>",
      "a platform to build for, repeatable (default: this machine's)",
      collect,
      [],
    )
    .option(
      "--runtime <runtime>",
      `runtime in the binaries: ${RUNTIME_NAMES.join(" or ")} for all, or PLATFORM=RUNTIME, repeatable`,
      collect,
      [],
    )
    .option("--node <path>", "a Node binary of this Node's version for its platform, repeatable", collect, [])
    .option("--node-mirror <url>", "Node distribution mirror to download Node binaries from")
    .option("--bun <path>", "the bun executable (default: the project's bun package, else PATH)")
    .option("--no-bytecode", "compile Bun binaries without --bytecode (smaller, slower to start)")
    .option("--cache-dir <dir>", "where downloaded runtimes are kept")
    .option(
      "--release-url <template>",
      "archive URL template for executa.json, e.g. …/{name}-v{version}/{asset}",
    )
    .option("--data <dir>", "a folder shipped as data/ in every archive")
    .option("--mcpb", "also an MCP bundle (.mcpb) per platform, for desktop clients that install them")
    .option("--mcpb-icon <file>", "the bundles' PNG icon (default: icon.png in the project, when present)")
    .option(
      "--mcpb-without-fallback",
      "pack .mcpb bundles, with a warning, even when storage or files would fail under MCP (no mcpLocalFallback())",
    )
    .option("--tsconfig <file>", "tsconfig to compile with")
    .option("--no-decorator-metadata", "compile without SWC (only for plugins without decorators)")
    .option(
      "--compat <file>",
      "released surface to stay compatible with (default: executa.surface.json when present)",
    )
    .option("--no-compat", "compare with no released surface")
    .option("--release", "record this build's tool surface in executa.surface.json")
    .option(
      "--surface-out <file>",
      "also write this build's tool surface (output schemas included) to FILE, as --release records it",
    )
    .option("-q, --quiet", "print nothing but failures");
}

/** The entry given, else the first default entry that exists; exits with an error when there is none. */
function entryOf(entryArg: string | undefined, cwd: string, command: Command): string {
  const entry = entryArg ?? DEFAULT_ENTRIES.find((candidate) => existsSync(resolve(cwd, candidate)));
  if (!entry) command.error(`error: no entry given and none of ${DEFAULT_ENTRIES.join(", ")} exists`);
  if (!existsSync(resolve(cwd, entry!))) command.error(`error: entry ${entry} does not exist`);
  return entry!;
}

/** The bundler's options from the flags; throws `InvalidArgumentError` for a bad flag value. */
async function buildOptionsOf(entry: string, flags: BuildFlags, io: CliIO): Promise<BuildExecutablesOptions> {
  return {
    entry,
    outDir: flags.outDir,
    name: flags.name,
    binary: flags.binary,
    targets: targetsFlag(flags),
    runtime: runtimeOf(flags.runtime),
    nodeBinaries: await nodeBinariesOf(flags.node),
    nodeMirror: flags.nodeMirror,
    bunPath: flags.bun,
    bunBytecode: flags.bytecode,
    cacheDir: flags.cacheDir,
    releaseUrl: flags.releaseUrl,
    dataDir: flags.data,
    mcpb: flags.mcpb,
    mcpbIcon: flags.mcpbIcon,
    mcpbWithoutFallback: flags.mcpbWithoutFallback,
    tsconfig: flags.tsconfig,
    decoratorMetadata: flags.decoratorMetadata,
    compat: flags.compat,
    release: flags.release,
    surfaceOut: flags.surfaceOut,
    quiet: flags.quiet,
    write: (text) => io.stdout.write(text),
  };
}

/**
 * Builds; false when the build must not ship (its reason is printed). Any other error is
 * a bug and is thrown.
 */
async function runBuild(options: BuildExecutablesOptions, io: CliIO): Promise<boolean> {
  try {
    await buildExecutables(options);
    return true;
  } catch (error) {
    if (!(error instanceof ExecutaBuildError)) throw error;
    io.stderr.write(`${error.message}\n`);
    return false;
  }
}

function targetsFlag(flags: BuildFlags): BuildExecutablesOptions["targets"] {
  if (flags.all) return "all";
  return flags.target.length > 0 ? targetsOf(flags.target) : undefined;
}

function targetsOf(values: readonly string[]): KnownPlatform[] {
  return values.map((value) => platformArgument("--target", value));
}

function runtimeOf(values: readonly string[]): RuntimeChoice | undefined {
  if (values.length === 0) return undefined;
  const choice: Partial<Record<KnownPlatform, RuntimeName>> = {};
  let all: RuntimeName | undefined;
  for (const value of values) {
    const [left, right] = value.includes("=") ? value.split("=", 2) : [undefined, value];
    const runtime = right as RuntimeName;
    if (!RUNTIME_NAMES.includes(runtime)) {
      throw new InvalidArgumentError(
        `--runtime: unknown runtime "${right}"; known: ${RUNTIME_NAMES.join(", ")}`,
      );
    }
    if (left === undefined) all = runtime;
    else choice[platformArgument("--runtime", left)] = runtime;
  }
  if (all) return Object.keys(choice).length > 0 ? { ...allOf(all), ...choice } : all;
  return choice;
}

function allOf(runtime: RuntimeName): Record<KnownPlatform, RuntimeName> {
  return Object.fromEntries(KNOWN_PLATFORMS.map((key) => [key, runtime])) as Record<
    KnownPlatform,
    RuntimeName
  >;
}

/** `--node PATH`: the platform is read from the binary's header. */
async function nodeBinariesOf(
  paths: readonly string[],
): Promise<Partial<Record<KnownPlatform, string>> | undefined> {
  if (paths.length === 0) return undefined;
  const binaries: Partial<Record<KnownPlatform, string>> = {};
  for (const path of paths) {
    const { key } = await platformOfBinary(resolve(path));
    if (!isKnownPlatform(key))
      throw new InvalidArgumentError(
        `--node ${path} is a ${key} binary, not one of ${KNOWN_PLATFORMS.join(", ")}`,
      );
    binaries[key] = resolve(path);
  }
  return binaries;
}

function platformArgument(flag: string, value: string): KnownPlatform {
  if (!isKnownPlatform(value)) {
    throw new InvalidArgumentError(
      `${flag}: unknown platform "${value}"; known: ${KNOWN_PLATFORMS.join(", ")}`,
    );
  }
  return value;
}
