import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { hostPlatform, type PlatformKey, platformOfBinary } from "../platform/platform-key.js";
import {
  isKnownPlatform,
  type KnownPlatform,
  type TargetPlatform,
  targetPlatform,
} from "../platform/platforms.js";
import type { RuntimeName } from "../runtime/runtimes.js";
import type { ArtifactCommand } from "./artifact-process.js";
import { findWineLoader, prepareWine, WINE_INSTALL, WINE_REFUSES } from "./wine.js";

/** How a binary of some platform can be started on this machine. */
export interface Runner {
  /** `native`, or the emulator's name (`qemu-aarch64-static`, `wine64`). */
  readonly via: "native" | string;
  /** The command line that starts `binary`. */
  command(binary: string): Pick<ArtifactCommand, "command" | "args">;
  /**
   * How the binary's stdin and stdout must be given: `pipes` (a live conversation), or
   * `files` (a conversation written in full beforehand; Wine cannot hand a pipe to a Node
   * single executable as its stdout).
   */
  readonly stdio: "pipes" | "files";
  /** Variables the runner adds to the binary's environment (Wine's prefix). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Options of `runnerFor` (how a built binary is started on this machine). */
export interface RunnerOptions {
  /** The runtime the binary carries, when known: some cannot run under an emulator. */
  runtime?: RuntimeName;
  /** Where Wine's prefix is kept: the folder of the downloaded runtimes (see `RuntimeOptions.cacheDir`). */
  cacheDir?: string;
}

/** How a platform's binaries start here: a runner, or why there is none. */
export type RunnerLookup = { runner: Runner } | { runner?: undefined; why: string };

interface Emulator {
  /** This machine's platform, on which the emulator runs. */
  host: KnownPlatform;
  target: KnownPlatform;
  commands: readonly string[];
  /** A file the emulated program needs from this machine (the target's dynamic loader). */
  needs?: { file: string; hint: string };
  install: string;
}

const EMULATORS: readonly Emulator[] = [
  {
    host: "linux-x86_64",
    target: "linux-aarch64",
    commands: ["qemu-aarch64-static", "qemu-aarch64"],
    needs: {
      file: "/lib/ld-linux-aarch64.so.1",
      hint: "dpkg --add-architecture arm64 && apt-get install libc6:arm64 libstdc++6:arm64",
    },
    install: "apt-get install qemu-user-static",
  },
  {
    host: "linux-aarch64",
    target: "linux-x86_64",
    commands: ["qemu-x86_64-static", "qemu-x86_64"],
    needs: {
      file: "/lib64/ld-linux-x86-64.so.2",
      hint: "dpkg --add-architecture amd64 && apt-get install libc6:amd64 libstdc++6:amd64",
    },
    install: "apt-get install qemu-user-static",
  },
];

/**
 * How to start a `target` binary here: natively on its own platform, under QEMU
 * user-mode emulation when installed, a Windows x86_64 one under Wine when installed
 * (in batch mode, on files), or not at all (the answer says why).
 */
export async function runnerFor(
  target: TargetPlatform,
  env: NodeJS.ProcessEnv = process.env,
  options: RunnerOptions = {},
): Promise<RunnerLookup> {
  const here = hostPlatform();
  if (target.key === here) {
    return {
      runner: { via: "native", stdio: "pipes", command: (binary) => ({ command: binary, args: [] }) },
    };
  }
  if (here === "linux-x86_64" && target.key === "windows-x86_64") return wineRunner(env, options);
  const emulators = EMULATORS.filter((e) => e.host === here && e.target === target.key);
  if (emulators.length === 0) return { why: `nothing runs ${target.key} binaries on ${here}` };
  for (const emulator of emulators) {
    const command = await findOnPath(emulator.commands, env);
    if (!command) continue;
    if (emulator.needs && !(await exists(emulator.needs.file))) {
      return {
        why: `${command} is installed but ${emulator.needs.file} is missing (${emulator.needs.hint})`,
      };
    }
    const name = command.split(/[\\/]/).pop()!;
    return {
      runner: { via: name, stdio: "pipes", command: (binary) => ({ command, args: [binary] }) },
    };
  }
  const names = emulators.flatMap((e) => e.commands).join(" or ");
  return { why: `${names} is not installed (${emulators[0]!.install})` };
}

async function wineRunner(env: NodeJS.ProcessEnv, options: RunnerOptions): Promise<RunnerLookup> {
  const refusal = options.runtime && WINE_REFUSES[options.runtime];
  if (refusal) return { why: refusal };
  const loader = await findWineLoader(env);
  if (!loader) return { why: `Wine is not installed (${WINE_INSTALL})` };
  const wine = await prepareWine(loader, options, env).catch((error: Error) => error);
  if (wine instanceof Error) return { why: `Wine's prefix could not be made: ${wine.message}` };
  return {
    runner: {
      via: loader.split("/").pop()!,
      stdio: "files",
      env: wine.env,
      command: (binary) => ({ command: loader, args: [binary] }),
    },
  };
}

async function findOnPath(names: readonly string[], env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const folders = (env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const name of names) {
    for (const folder of folders) {
      const path = join(folder, name);
      if (await exists(path, constants.X_OK)) return path;
    }
  }
  return undefined;
}

async function exists(path: string, mode = constants.F_OK): Promise<boolean> {
  return access(path, mode).then(
    () => true,
    () => false,
  );
}

/** How this machine can start an executable file read from its header; see {@link runnerForBinary}. */
export interface BinaryRunner {
  /** The executable's platform. */
  readonly platform: PlatformKey;
  /** This machine's platform. */
  readonly here: PlatformKey;
  /** A runner (natively or under an emulator), or why there is none. */
  readonly lookup: RunnerLookup;
}

/**
 * How to start the executable at `path` here, from its ELF, Mach-O or PE header: natively,
 * under QEMU or Wine, or not (with why). `undefined` when the file is no such executable (a
 * script, a missing file), which is then started as it is.
 */
export async function runnerForBinary(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
  options: RunnerOptions = {},
): Promise<BinaryRunner | undefined> {
  const platform = await platformOfBinary(path).then(
    (read) => read.key,
    () => undefined,
  );
  if (platform === undefined) return undefined;
  const here = hostPlatform();
  const lookup: RunnerLookup = isKnownPlatform(platform)
    ? await runnerFor(targetPlatform(platform), env, options)
    : { why: `nothing runs ${platform} binaries on ${here}` };
  return { platform, here, lookup };
}
