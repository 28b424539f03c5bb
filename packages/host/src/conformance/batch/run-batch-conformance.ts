import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DESCRIBE_TIMEOUT_MS, MAX_FRAME_BYTES } from "@executa/core";
import { isHostInputClosed } from "@executa/core/internal";
import { ERROR_PROBES, type ProbeWriter } from "../checks/errors.js";
import { initializeParams, judgeManifest } from "../checks/handshake.js";
import { healthTimer, judgeHealthAnswer } from "../checks/health.js";
import { judgeStdoutPurity } from "../checks/stdout-purity.js";
import { errorOf, formatAnswer, formatDuration } from "../probe/outcome-text.js";
import { classifyLine } from "../probe/stdout-line.js";
import { type CheckResult, CheckTimer, type ConformanceReport, summarize } from "../report.js";
import { CHECK_GROUPS } from "../run-conformance.js";
import { type BatchOutcome, runBatch } from "./batch-process.js";

/** Options of {@link runBatchConformance}. */
export interface BatchConformanceOptions {
  cwd?: string;
  /** The plugin's environment. Default: this process's. */
  env?: NodeJS.ProcessEnv;
  /**
   * How long the whole first conversation may take, from spawn to exit: `describe` was
   * answered within it. Default: the spec's 5 s for `describe`.
   */
  describeTimeoutMs?: number;
  /** Size of the oversized line. Default 17 MiB (the spec's ceiling is 16 MiB). */
  longLineBytes?: number;
  /** Called as each check settles (for progress output). */
  onResult?: (result: CheckResult) => void;
}

/** A check of {@link runConformance} that a batch conversation cannot run, and why. */
export interface CheckNotRun {
  id: string;
  title: string;
  why: string;
}

/** What {@link runBatchConformance} reports: the checks it ran, and those it could not. */
export interface BatchConformanceReport extends ConformanceReport {
  /** The checks that need a live pipe to the plugin, which a batch run has not. */
  notRun: readonly CheckNotRun[];
  /** The manifest `describe` answered, when it did. */
  manifest?: Record<string, unknown>;
  /** From spawn to exit of the first conversation (an upper bound of the `describe` time). */
  conversationMs: number;
}

/** Why each check of {@link runConformance} that a batch conversation cannot do needs a live pipe. */
const WHY_A_PIPE: Readonly<Record<string, string>> = {
  "still-serving": "asks again after a pause",
  notifications: "waits to see that no answer comes",
  pipelining: "times the answers as they come",
  "sigterm-exit": "signals the running process",
};

/**
 * The checks that wait for one answer before writing the next line, or signal the
 * process (a batch conversation writes every line before the plugin starts), and the
 * exact `describe` time (only a whole conversation is timed).
 */
export const CHECKS_NEEDING_A_PIPE: readonly CheckNotRun[] = [
  ...CHECK_GROUPS.flatMap((group) => group.checks)
    .filter((check) => Object.hasOwn(WHY_A_PIPE, check.id))
    .map(({ id, title }) => ({ id, title, why: WHY_A_PIPE[id]! })),
  { id: "describe-time", title: "describe time", why: "only the whole conversation is timed" },
];

const GROUP = "batch";
/** How much longer than the describe limit a conversation may run before it is killed. */
const RUN_ALLOWANCE_MS = 30_000;

/**
 * Runs the conformance checks that need no interaction in two scripted conversations,
 * each written to a file that is the plugin's stdin, its answers read back from the file
 * that is its stdout (for a runner that cannot give the plugin pipes, such as Wine for a
 * Node single executable). The first: `initialize`, `describe` (the manifest judged, the
 * whole run within the describe limit), `health` and the error probes of
 * {@link runConformance} (unparsable line, unknown method, `invoke` without `tool`,
 * unknown tool, …). The second: `initialize`, an oversized line followed by a request
 * that must still be answered, and an `invoke` of each tool whose required parameters all
 * have a default or an enum in the manifest (its sample arguments), each of which must
 * answer a result with a boolean `success`. Both must end with exit code 0 at the end of
 * their input, and every stdout line of both must be a JSON-RPC frame.
 *
 * Never throws for a misbehaving plugin; rejects only when the command cannot be started.
 */
export async function runBatchConformance(
  command: string,
  args: readonly string[] = [],
  options: BatchConformanceOptions = {},
): Promise<BatchConformanceReport> {
  const startedAt = new Date();
  const started = performance.now();
  const workDir = await mkdtemp(join(tmpdir(), "executa-batch-"));
  const checks: CheckResult[] = [];
  const emit = (result: CheckResult) => {
    checks.push(result);
    options.onResult?.(result);
  };
  const describeTimeoutMs = options.describeTimeoutMs ?? DESCRIBE_TIMEOUT_MS;
  const base = { command, args, cwd: options.cwd, env: options.env ?? process.env, workDir };
  try {
    const first = new Conversation();
    const firstIds = first.writeFirst();
    const outcome = await runBatch(
      { ...base, timeoutMs: describeTimeoutMs + RUN_ALLOWANCE_MS },
      first.text(),
    );
    const answers = answersOf(outcome);
    const manifest = answers.byId.get(firstIds.describe)?.result;
    for (const result of judgeFirst(firstIds, answers, outcome, describeTimeoutMs)) emit(result);

    const second = new Conversation();
    const secondIds = second.writeSecond(
      options.longLineBytes ?? MAX_FRAME_BYTES + 1024 * 1024,
      isObject(manifest) ? manifest : undefined,
    );
    const secondOutcome = await runBatch(
      { ...base, timeoutMs: describeTimeoutMs + RUN_ALLOWANCE_MS },
      second.text(),
    );
    const secondAnswers = answersOf(secondOutcome);
    for (const result of judgeSecond(secondIds, secondAnswers, secondOutcome)) emit(result);
    emit(judgeEndOfInput([outcome, secondOutcome]));
    emit(judgeStdoutPurity([...answers.lines, ...secondAnswers.lines], 2));
    const report: BatchConformanceReport = {
      schema: "executa-check/1",
      command,
      args: [...args],
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - started),
      checks,
      summary: summarize(checks),
      notRun: CHECKS_NEEDING_A_PIPE,
      conversationMs: outcome.ms,
    };
    if (isObject(manifest)) {
      report.manifest = manifest;
      report.plugin = { name: String(manifest.name), version: String(manifest.version) };
    }
    return report;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** The ids the first conversation's requests carry. */
interface FirstIds {
  initialize: number;
  describe: number;
  health: number;
  /** Per error probe, the id its answer carries (`null`: an unreadable request). */
  probes: unknown[];
}

/** The ids the second conversation's requests carry. */
interface SecondIds {
  longLine: number;
  /** The request after the oversized line. */
  afterLongLine: number;
  invokes: PlannedInvoke[];
}

/** One `invoke` of the second conversation. */
interface PlannedInvoke {
  id: number;
  tool: string;
  arguments: Record<string, unknown>;
}

/** A conversation being written: its lines, with ids counted up. */
class Conversation implements ProbeWriter {
  private readonly lines: string[] = [];
  private lastId = 0;

  newId(): number {
    return ++this.lastId;
  }

  sendRaw(text: string): void {
    this.lines.push(text);
  }

  send(frame: object): void {
    this.lines.push(JSON.stringify(frame));
  }

  request(method: string, params?: unknown): number {
    const id = this.newId();
    this.send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    return id;
  }

  writeFirst(): FirstIds {
    const initialize = this.request("initialize", initializeParams());
    const describe = this.request("describe");
    const health = this.request("health");
    const probes = ERROR_PROBES.map((probe) => probe.send(this));
    return { initialize, describe, health, probes };
  }

  writeSecond(longLineBytes: number, manifest: Record<string, unknown> | undefined): SecondIds {
    this.request("initialize", initializeParams());
    const longLine = this.newId();
    const head = JSON.stringify({
      jsonrpc: "2.0",
      id: longLine,
      method: "describe",
      params: { padding: "" },
    });
    // Pad the empty string so the whole line is exactly `longLineBytes` long.
    const padding = "x".repeat(Math.max(0, longLineBytes - Buffer.byteLength(head)));
    this.sendRaw(head.replace('"padding":""', `"padding":"${padding}"`));
    const afterLongLine = this.request("describe");
    const tools = Array.isArray(manifest?.tools) ? (manifest.tools as unknown[]) : [];
    const invokes = tools.flatMap((tool) => {
      const sample = sampleArguments(tool);
      if (!sample) return [];
      const name = String((tool as { name: unknown }).name);
      const id = this.request("invoke", { tool: name, arguments: sample, context: {} });
      return [{ id, tool: name, arguments: sample }];
    });
    return { longLine, afterLongLine, invokes };
  }

  text(): string {
    return `${this.lines.join("\n")}\n`;
  }
}

/**
 * A tool's arguments from its manifest: every required parameter's default, else its
 * first enum value. `undefined` when a required parameter has neither (no sample).
 */
export function sampleArguments(tool: unknown): Record<string, unknown> | undefined {
  if (!isObject(tool) || typeof tool.name !== "string") return undefined;
  const parameters = Array.isArray(tool.parameters) ? tool.parameters : [];
  const sample: Record<string, unknown> = {};
  for (const parameter of parameters) {
    if (!isObject(parameter) || typeof parameter.name !== "string") return undefined;
    if (parameter.required === false) continue;
    if (parameter.default !== undefined) sample[parameter.name] = parameter.default;
    else if (Array.isArray(parameter.enum) && parameter.enum.length > 0)
      sample[parameter.name] = parameter.enum[0];
    else return undefined;
  }
  return sample;
}

/** The answers of one run: its response frames by id, the unreadable-request answers in order, every line classified. */
interface Answers {
  byId: Map<unknown, Record<string, unknown>>;
  idless: Record<string, unknown>[];
  lines: ReturnType<typeof classifyLine>[];
}

function answersOf(outcome: BatchOutcome): Answers {
  const answers: Answers = { byId: new Map(), idless: [], lines: [] };
  for (const text of outcome.stdout) {
    answers.lines.push(classifyLine(text));
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      continue;
    }
    if (!isObject(frame) || !("result" in frame || "error" in frame)) continue;
    if (frame.id === null || frame.id === undefined) answers.idless.push(frame);
    else answers.byId.set(frame.id, frame);
  }
  return answers;
}

function judgeFirst(
  ids: FirstIds,
  answers: Answers,
  outcome: BatchOutcome,
  describeTimeoutMs: number,
): CheckResult[] {
  const silent = silence(outcome);
  const results: CheckResult[] = [];
  const initialize = answers.byId.get(ids.initialize);
  const initTimer = new CheckTimer(GROUP, "initialize", "initialize answered");
  const version = isObject(initialize?.result) ? initialize.result.protocolVersion : undefined;
  results.push(
    !initialize
      ? initTimer.fail(`no answer to initialize${silent}`)
      : errorOf(initialize)?.code === -32601 || version === "2.0" || version === "1.1"
        ? initTimer.pass(errorOf(initialize) ? "v1 plugin: -32601" : `negotiated protocol ${String(version)}`)
        : initTimer.fail(`answered initialize with ${formatAnswer(initialize)}`),
  );

  const described = answers.byId.get(ids.describe);
  const describeTimer = new CheckTimer(
    GROUP,
    "describe",
    `describe within ${formatDuration(describeTimeoutMs)}`,
  );
  if (!described) results.push(describeTimer.fail(`no answer to describe${silent}`));
  else if (outcome.ms > describeTimeoutMs)
    results.push(
      describeTimer.fail(
        `the conversation took ${outcome.ms} ms, over the ${formatDuration(describeTimeoutMs)} limit`,
      ),
    );
  else results.push(describeTimer.pass(`answered; the whole conversation took ${outcome.ms} ms`));
  results.push(judgeManifest(described?.result, described !== undefined));

  const health = answers.byId.get(ids.health);
  results.push(
    health ? judgeHealthAnswer(healthTimer(), health) : healthTimer().fail(`no answer to health${silent}`),
  );

  // Answers with id null carry nothing to match them by but their code.
  const idless = [...answers.idless];
  const takeIdless = (code: number) => {
    const index = Math.max(
      0,
      idless.findIndex((answer) => errorOf(answer)?.code === code),
    );
    return idless.splice(index, 1)[0];
  };
  ERROR_PROBES.forEach((probe, index) => {
    const timer = new CheckTimer("errors", probe.id, probe.title);
    const id = ids.probes[index];
    const answer = id === null ? takeIdless(probe.code) : answers.byId.get(id);
    if (!answer) {
      results.push(timer.verdict(probe.silence, `no answer to ${probe.what}${silent}`));
      return;
    }
    const verdict = probe.judge(answer);
    results.push(timer.verdict(verdict.status, verdict.reason));
  });

  return results;
}

function judgeSecond(ids: SecondIds, answers: Answers, outcome: BatchOutcome): CheckResult[] {
  const silent = silence(outcome);
  const results: CheckResult[] = [];
  const longTimer = new CheckTimer("framing", "long-line", "an oversized line → -32600, keeps serving");
  const big =
    answers.byId.get(ids.longLine) ??
    answers.idless.find((answer) => errorOf(answer)?.code === -32600) ??
    answers.idless[0];
  if (!answers.byId.get(ids.afterLongLine)) {
    results.push(longTimer.fail(`no answer to the request after the oversized line${silent}`));
  } else if (!big) {
    results.push(
      longTimer.fail("dropped the oversized line without an answer (expected -32600 with id null)"),
    );
  } else if (errorOf(big)?.code === -32600) {
    results.push(longTimer.pass("answered the oversized line with -32600 and kept serving"));
  } else {
    results.push(longTimer.warn(`answered the oversized line with ${formatAnswer(big)}; expected -32600`));
  }
  for (const invoke of ids.invokes) results.push(judgeInvoke(invoke, answers, outcome));
  return results;
}

/** Both conversations must end with exit code 0 at the end of their input. */
function judgeEndOfInput(outcomes: readonly BatchOutcome[]): CheckResult {
  const timer = new CheckTimer("shutdown", "eof-exit", "end of input → exit 0");
  const failed = outcomes.find((outcome) => outcome.exit?.code !== 0);
  if (failed) return timer.fail(`did not exit 0 at end of input: ${exitText(failed)}${stderrTail(failed)}`);
  return timer.pass(`exited 0 after ${outcomes.map((outcome) => `${outcome.ms} ms`).join(" and ")}`);
}

function judgeInvoke(invoke: PlannedInvoke, answers: Answers, outcome: BatchOutcome): CheckResult {
  const timer = new CheckTimer(
    "invoke",
    `invoke:${invoke.tool}`,
    `invoke ${invoke.tool} with its sample arguments`,
  );
  const answer = answers.byId.get(invoke.id);
  if (!answer) return timer.fail(`no answer${silence(outcome)}`);
  const result = answer.result;
  if (isObject(result) && typeof result.success === "boolean") {
    return timer.pass(`answered success: ${result.success} to ${JSON.stringify(invoke.arguments)}`);
  }
  // A tool that calls the host (storage, sampling, …) gets no reply in a batch run: its
  // input was written whole and closed, so the plugin rightly fails the call. Only a live
  // pipe can judge it.
  const error = errorOf(answer);
  if (isHostInputClosed(error)) {
    return timer.warn(
      `called the host, which a batch run cannot answer (its input is closed): not judged; needs a live pipe`,
    );
  }
  return timer.fail(`answered ${formatAnswer(answer)}; expected a result with a boolean success`);
}

/** Why an answer may be missing, from how the run ended. */
function silence(outcome: BatchOutcome): string {
  return ` (the plugin ${outcome.exit ? `exited with ${exitText(outcome)}` : "was killed at the time limit"}${stderrTail(outcome)})`;
}

function exitText(outcome: BatchOutcome): string {
  if (!outcome.exit) return "killed at the time limit";
  return outcome.exit.signal ? `signal ${outcome.exit.signal}` : `code ${outcome.exit.code}`;
}

function stderrTail(outcome: BatchOutcome): string {
  const last = outcome.stderr.trimEnd().split("\n").filter(Boolean).at(-1);
  return last ? `; stderr: ${last.length > 160 ? `${last.slice(0, 160)}…` : last}` : "";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
