import type { WireProbe } from "./probe/wire-probe.js";
import type { CheckResult } from "./report.js";

/** Options of `runConformance`. */
export interface ConformanceOptions {
  cwd?: string;
  /** The plugin's environment. Default: this process's. */
  env?: NodeJS.ProcessEnv;
  /** How long `describe` and `initialize` may take. Default: the spec's 5 s. */
  describeTimeoutMs?: number;
  /** How long `health` may take. Default: the spec's 3 s. */
  healthTimeoutMs?: number;
  /** How long any other probe waits for its answer. Default 3 s. */
  replyTimeoutMs?: number;
  /** How long the plugin may take to exit after EOF or SIGTERM. Default: the spec's 5 s. */
  exitTimeoutMs?: number;
  /** Size of the oversized line. Default 17 MiB (the spec's ceiling is 16 MiB). */
  longLineBytes?: number;
  /** Requests written at once by the pipelining check. Default 16. */
  pipelineCount?: number;
  /** Check ids or group ids to leave out. */
  skip?: readonly string[];
  /** Called as each check settles (for progress output). */
  onResult?: (result: CheckResult) => void;
}

/** {@link ConformanceOptions} with every default filled in. */
export interface ResolvedOptions {
  cwd: string | undefined;
  env: NodeJS.ProcessEnv;
  describeTimeoutMs: number;
  healthTimeoutMs: number;
  replyTimeoutMs: number;
  exitTimeoutMs: number;
  longLineBytes: number;
  pipelineCount: number;
}

/** Facts one group learns that later groups use. */
export interface SharedFacts {
  /** The manifest `describe` answered (unvalidated). */
  manifest?: Record<string, unknown>;
  /** What `initialize` negotiated ("1.1" for a -32601 answer). */
  protocolVersion?: string;
}

/** What a check group gets from the runner. */
export interface CheckContext {
  readonly command: string;
  readonly args: readonly string[];
  readonly options: ResolvedOptions;
  readonly facts: SharedFacts;
  /**
   * Spawns a fresh plugin process, owned by the runner (killed after the group). With
   * `initialize`, the v2 handshake is done first, as a host would; its answer is not judged
   * here (the handshake group does that).
   */
  session(options?: { initialize?: boolean }): Promise<WireProbe>;
}

/** A set of related checks, run in its own fresh processes. */
export interface CheckGroup {
  id: string;
  /** The ids of the checks it produces, in order (for `--skip` and listings). */
  checks: readonly { id: string; title: string }[];
  run(context: CheckContext): Promise<CheckResult[]>;
}
