import { DESCRIBE_TIMEOUT_MS, HEALTH_TIMEOUT_MS, HOST_KILL_GRACE_MS, MAX_FRAME_BYTES } from "@executa/core";
import type {
  CheckContext,
  CheckGroup,
  ConformanceOptions,
  ResolvedOptions,
  SharedFacts,
} from "./check-context.js";
import { errorsGroup } from "./checks/errors.js";
import { handshakeGroup, initializeParams } from "./checks/handshake.js";
import { healthGroup } from "./checks/health.js";
import { longLineGroup } from "./checks/long-line.js";
import { notificationsGroup } from "./checks/notifications.js";
import { pipeliningGroup } from "./checks/pipelining.js";
import { shutdownGroup } from "./checks/shutdown.js";
import { judgeStdoutPurity } from "./checks/stdout-purity.js";
import { WireProbe } from "./probe/wire-probe.js";
import { type CheckResult, CheckTimer, type ConformanceReport, summarize } from "./report.js";

/** The check groups, in the order they run. Stdout purity is judged last, over all of them. */
export const CHECK_GROUPS: readonly CheckGroup[] = [
  handshakeGroup,
  healthGroup,
  errorsGroup,
  notificationsGroup,
  pipeliningGroup,
  longLineGroup,
  shutdownGroup,
];

/** Every check id, in report order. */
export const CHECK_IDS: readonly string[] = [
  ...CHECK_GROUPS.flatMap((group) => group.checks.map((check) => check.id)),
  "stdout-purity",
];

/** Every group id (`stdout` is the purity check's), for `skip`. */
export const CHECK_GROUP_IDS: readonly string[] = [...CHECK_GROUPS.map((group) => group.id), "stdout"];

/** Thrown inside the runner when the plugin cannot even be started. */
class StartError extends Error {}

/**
 * Runs the conformance checks of the Executa protocol spec against any plugin
 * executable and reports PASS / WARN / FAIL per check. Each group runs in fresh
 * processes of `command`, one group after another; every process is killed afterwards.
 *
 * Never throws for a misbehaving plugin: a plugin that cannot even be started yields a
 * report with one failed `start` check.
 */
export async function runConformance(
  command: string,
  args: readonly string[] = [],
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  if (typeof command !== "string" || command === "")
    throw new TypeError("runConformance: command is required");
  const run = new ConformanceRun(command, args, options);
  for (const group of CHECK_GROUPS) {
    if (run.skips(group)) continue;
    if ((await run.runGroup(group)) === "not-started") return run.report();
  }
  run.judgeStdoutPurity();
  return run.report();
}

/** One run of the checks: the options, what the groups found, and the results so far. */
class ConformanceRun {
  private readonly startedAt = new Date();
  private readonly started = performance.now();
  private readonly resolved: ResolvedOptions;
  private readonly skip: ReadonlySet<string>;
  private readonly facts: SharedFacts = {};
  private readonly allProbes: WireProbe[] = [];
  private readonly checks: CheckResult[] = [];

  constructor(
    private readonly command: string,
    private readonly args: readonly string[],
    private readonly options: ConformanceOptions,
  ) {
    this.resolved = resolveOptions(options);
    this.skip = skipSetOf(options.skip);
  }

  /** True when the group or all of its checks are skipped. */
  skips(group: CheckGroup): boolean {
    return this.skip.has(group.id) || group.checks.every((check) => this.skip.has(check.id));
  }

  /**
   * Runs one group in its own processes, all disposed afterwards. A group that throws
   * fails each of its checks; `"not-started"` when the plugin could not be started at all.
   */
  async runGroup(group: CheckGroup): Promise<"done" | "not-started"> {
    const groupProbes: WireProbe[] = [];
    try {
      for (const result of await group.run(this.context(groupProbes))) this.emit(result);
      return "done";
    } catch (error) {
      if (error instanceof StartError) {
        this.emit(new CheckTimer("start", "start", "the plugin starts").fail(error.message));
        return "not-started";
      }
      for (const check of group.checks) {
        const reason = `the check itself failed: ${(error as Error).message}`;
        this.emit(new CheckTimer(group.id, check.id, check.title).fail(reason));
      }
      return "done";
    } finally {
      await Promise.all(groupProbes.map((p) => p.dispose()));
    }
  }

  /** Judges every stdout line of every process the run started. */
  judgeStdoutPurity(): void {
    if (this.skip.has("stdout-purity") || this.skip.has("stdout")) return;
    const lines = this.allProbes.flatMap((p) => p.stdout);
    this.emit(judgeStdoutPurity(lines, this.allProbes.length));
  }

  report(): ConformanceReport {
    return finish(this.command, this.args, this.startedAt, this.started, this.facts, this.checks);
  }

  private context(groupProbes: WireProbe[]): CheckContext {
    const { command, args, resolved } = this;
    return {
      command,
      args,
      options: resolved,
      facts: this.facts,
      session: async ({ initialize = false } = {}) => {
        const probe = await startProbe({ command, args, cwd: resolved.cwd, env: resolved.env });
        groupProbes.push(probe);
        this.allProbes.push(probe);
        if (initialize) await probe.request("initialize", initializeParams(), resolved.describeTimeoutMs);
        return probe;
      },
    };
  }

  private emit(result: CheckResult): void {
    if (this.skip.has(result.id)) return;
    this.checks.push(result);
    this.options.onResult?.(result);
  }
}

async function startProbe(options: Parameters<typeof WireProbe.start>[0]): Promise<WireProbe> {
  try {
    return await WireProbe.start(options);
  } catch (error) {
    throw new StartError((error as Error).message);
  }
}

function skipSetOf(ids: readonly string[] | undefined): ReadonlySet<string> {
  const skip = new Set(ids ?? []);
  for (const id of skip) {
    if (!CHECK_IDS.includes(id) && !CHECK_GROUP_IDS.includes(id))
      throw new TypeError(`unknown check "${id}"; checks: ${CHECK_IDS.join(", ")}`);
  }
  return skip;
}

function finish(
  command: string,
  args: readonly string[],
  startedAt: Date,
  started: number,
  facts: SharedFacts,
  checks: CheckResult[],
): ConformanceReport {
  const report: ConformanceReport = {
    schema: "executa-check/1",
    command,
    args: [...args],
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    checks,
    summary: summarize(checks),
  };
  const manifest = facts.manifest;
  if (manifest || facts.protocolVersion) {
    report.plugin = {};
    if (typeof manifest?.name === "string") report.plugin.name = manifest.name;
    if (typeof manifest?.version === "string") report.plugin.version = manifest.version;
    if (facts.protocolVersion) report.plugin.protocolVersion = facts.protocolVersion;
  }
  return report;
}

function resolveOptions(options: ConformanceOptions): ResolvedOptions {
  const positive = (value: number | undefined, fallback: number, name: string) => {
    if (value === undefined) return fallback;
    if (!Number.isFinite(value) || value <= 0)
      throw new TypeError(`runConformance: ${name} must be a positive number`);
    return value;
  };
  return {
    cwd: options.cwd,
    env: options.env ?? process.env,
    describeTimeoutMs: positive(options.describeTimeoutMs, DESCRIBE_TIMEOUT_MS, "describeTimeoutMs"),
    healthTimeoutMs: positive(options.healthTimeoutMs, HEALTH_TIMEOUT_MS, "healthTimeoutMs"),
    replyTimeoutMs: positive(options.replyTimeoutMs, 3_000, "replyTimeoutMs"),
    exitTimeoutMs: positive(options.exitTimeoutMs, HOST_KILL_GRACE_MS, "exitTimeoutMs"),
    longLineBytes: positive(options.longLineBytes, MAX_FRAME_BYTES + 1024 * 1024, "longLineBytes"),
    pipelineCount: positive(options.pipelineCount, 16, "pipelineCount"),
  };
}
