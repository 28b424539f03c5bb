import type { Logger } from "@executa/core";
import { type PluginProcess, spawnPlugin } from "@executa/host";
import { ExecutaBuildError } from "../errors/build-error.js";

/** How to start an artifact. */
export interface ArtifactCommand {
  command: string;
  args?: readonly string[];
  cwd?: string;
  /** Environment of the child; the build's environment by default. */
  env?: NodeJS.ProcessEnv;
}

/**
 * An artifact running under `@executa/host`'s {@link PluginProcess}, driven as a host
 * drives it, with what the build checks beyond what a host needs: every stdout line
 * that is not a protocol frame, and when the process was spawned.
 */
export interface RunningArtifact {
  readonly plugin: PluginProcess;
  /** `performance.now()` just before the spawn: describe times are measured from here. */
  readonly spawnedAt: number;
  /** Stdout lines that were not JSON-RPC frames, in order (stdout must carry frames only). */
  readonly strayLines: string[];
}

/** Who the build says it is in `initialize`. */
const BUILD_CLIENT = { name: "executa-build", version: "1" };

/** The host's own diagnostics are not the build's report: the checks say what failed. */
const silentLog: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silentLog };

/**
 * Spawns an artifact with no host capabilities (a reverse call is answered -32601) and
 * starts recording its stray stdout lines. Rejects with an `ARTIFACT_SPAWN` error when the
 * command cannot be started.
 */
export async function startArtifact(command: ArtifactCommand): Promise<RunningArtifact> {
  const spawnedAt = performance.now();
  let plugin: PluginProcess;
  try {
    plugin = await spawnPlugin({
      command: command.command,
      args: command.args,
      cwd: command.cwd,
      // The command's environment replaces the build's, as given.
      env: command.env,
      inheritEnv: command.env === undefined,
      clientInfo: BUILD_CLIENT,
      log: silentLog,
    });
  } catch (error) {
    const reason = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message;
    throw new ExecutaBuildError("ARTIFACT_SPAWN", `cannot start ${command.command}: ${reason}`, {
      cause: error,
    });
  }
  const strayLines: string[] = [];
  plugin.stdoutDebug.onLine((line) => strayLines.push(line));
  return { plugin, spawnedAt, strayLines };
}

/** Everything the artifact wrote to stderr that the host kept (its last lines). */
export function stderrOf(plugin: PluginProcess): string {
  return plugin.stderr.recent.join("\n");
}

/** How an exit reads in a message: `signal SIGKILL`, `code 3`. */
export function describeExit(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}
