import { validateManifest } from "@executa/core";
import type { CheckContext, CheckGroup } from "../check-context.js";
import {
  errorOf,
  formatAnswer,
  formatDuration,
  formatExit,
  noAnswer,
  stderrHint,
} from "../probe/outcome-text.js";
import type { ReplyOutcome, WireProbe } from "../probe/wire-probe.js";
import { type CheckResult, CheckTimer } from "../report.js";

const GROUP = "handshake";

/** The `initialize` params a v2 host sends. */
export function initializeParams(): Record<string, unknown> {
  return {
    protocolVersion: "2.0",
    clientInfo: { name: "executa-check", version: "0.1.0" },
    capabilities: {},
  };
}

/**
 * The start of a session as a v2 host runs it: `initialize` (v2 negotiation or -32601),
 * `describe` within 5 s with a valid manifest, and the plugin still serving after its
 * first reply (a process that exits after one answer is a protocol violation).
 */
export const handshakeGroup: CheckGroup = {
  id: GROUP,
  checks: [
    { id: "initialize", title: "initialize negotiation" },
    { id: "describe", title: "describe within 5 s" },
    { id: "manifest", title: "valid manifest" },
    { id: "still-serving", title: "still serving after the first reply" },
  ],
  async run(context) {
    const probe = await context.session();
    const { describeTimeoutMs } = context.options;
    const initTimer = new CheckTimer(GROUP, "initialize", "initialize negotiation");
    const init = await probe.request("initialize", initializeParams(), describeTimeoutMs);
    const initialize = judgeInitialize(init, context, describeTimeoutMs, probe);
    const runningAfterInit = probe.running;
    const results: CheckResult[] = [
      initTimer.verdict(initialize.status, initialize.reason, initialize.details),
    ];

    const describeTimer = new CheckTimer(GROUP, "describe", "describe within 5 s");
    const described = await probe.request("describe", undefined, describeTimeoutMs);
    let manifest: unknown;
    if (described.kind === "response" && "result" in described.frame && !errorOf(described.frame)) {
      manifest = described.frame.result;
      results.push(
        describeTimer.pass(`answered in ${formatDuration(described.ms)}`, {
          describeMs: Math.round(described.ms),
        }),
      );
    } else if (described.kind === "response") {
      results.push(describeTimer.fail(`answered describe with ${formatAnswer(described.frame)}`));
    } else {
      results.push(describeTimer.fail(noAnswer(described, "describe", probe, describeTimeoutMs)));
    }
    if (isObject(manifest)) context.facts.manifest = manifest;
    results.push(judgeManifest(manifest, described.kind === "response"));
    results.push(await judgeStillServing(context, [init, described], runningAfterInit, probe));
    return results;
  },
};

interface Verdict {
  status: "PASS" | "WARN" | "FAIL";
  reason: string;
  details?: Record<string, unknown>;
}

function judgeInitialize(
  outcome: ReplyOutcome,
  context: CheckContext,
  timeoutMs: number,
  probe: WireProbe,
): Verdict {
  if (outcome.kind !== "response") {
    return { status: "FAIL", reason: noAnswer(outcome, "initialize", probe, timeoutMs) };
  }
  const error = errorOf(outcome.frame);
  if (error) {
    if (error.code === -32601) {
      context.facts.protocolVersion = "1.1";
      return { status: "PASS", reason: "v1 plugin: answered -32601, so a host falls back to protocol 1.1" };
    }
    return {
      status: "FAIL",
      reason: `answered initialize with ${formatAnswer(outcome.frame)}; expected a result or -32601`,
    };
  }
  const result = outcome.frame.result;
  if (!isObject(result))
    return {
      status: "FAIL",
      reason: `the initialize result must be an object, got ${formatAnswer(outcome.frame)}`,
    };
  const version = result.protocolVersion;
  if (version === undefined) {
    context.facts.protocolVersion = "1.1";
    return {
      status: "WARN",
      reason: "answered without protocolVersion (a host takes that as 1.1); echo the version accepted",
    };
  }
  if (version !== "2.0" && version !== "1.1") {
    return {
      status: "FAIL",
      reason: `protocolVersion ${JSON.stringify(version)} is neither "2.0" nor "1.1"`,
    };
  }
  context.facts.protocolVersion = version;
  const problems: string[] = [];
  const info = result.serverInfo;
  if (!isObject(info) || typeof info.name !== "string" || typeof info.version !== "string")
    problems.push("serverInfo {name, version} is missing");
  if (result.client_capabilities !== undefined && !isObject(result.client_capabilities))
    problems.push("client_capabilities is not an object");
  const server =
    isObject(info) && typeof info.name === "string" ? ` (${info.name} ${String(info.version)})` : "";
  if (problems.length > 0) {
    return {
      status: "WARN",
      reason: `negotiated ${version}, but ${problems.join("; ")}`,
      details: { result },
    };
  }
  return { status: "PASS", reason: `negotiated protocol ${version}${server}`, details: { result } };
}

/** The "valid manifest" check of a `describe` answer (`undefined`: none came). */
export function judgeManifest(manifest: unknown, answered: boolean): CheckResult {
  const timer = new CheckTimer(GROUP, "manifest", "valid manifest");
  if (manifest === undefined) {
    return timer.fail(
      answered ? "describe did not answer a manifest" : "no manifest: describe was not answered",
    );
  }
  const issues = validateManifest(manifest);
  const errors = issues.filter((i) => i.severity === "error");
  const warnings = issues.filter((i) => i.severity === "warning");
  const first = (list: typeof issues) =>
    `${list[0]!.path || "manifest"}: ${list[0]!.message}${list.length > 1 ? ` (+${list.length - 1} more)` : ""}`;
  if (errors.length > 0) return timer.fail(first(errors), { issues });
  if (warnings.length > 0) return timer.warn(first(warnings), { issues });
  const m = manifest as Record<string, unknown>;
  const tools = m.tools as Record<string, unknown>[];
  const parameters = tools.reduce((n, t) => n + (Array.isArray(t.parameters) ? t.parameters.length : 0), 0);
  return timer.pass(
    `${m.name} ${m.version}: ${tools.length} tool(s), ${parameters} parameter(s), all well-formed`,
  );
}

/**
 * After its first reply the plugin must keep reading: it is asked once more (after a
 * pause) and must still be running and answer.
 */
async function judgeStillServing(
  context: CheckContext,
  outcomes: ReplyOutcome[],
  runningAfterFirst: boolean,
  probe: WireProbe,
) {
  const timer = new CheckTimer(GROUP, "still-serving", "still serving after the first reply");
  const replies = outcomes.filter((o) => o.kind === "response").length;
  if (replies === 0) {
    return timer.fail(
      probe.running
        ? "the plugin never replied to initialize or describe"
        : `the plugin exited (${formatExit(probe.exit)}) without replying${stderrHint(probe)}`,
    );
  }
  if (!runningAfterFirst || !probe.running) {
    await probe.waitForExit(200);
    return timer.fail(
      `the plugin exited (${formatExit(probe.exit)}) after ${replies === 1 ? "its first reply" : `${replies} replies`}; it must keep reading stdin until EOF`,
    );
  }
  await probe.settle(250);
  const again = await probe.request("describe", undefined, context.options.describeTimeoutMs);
  if (again.kind === "response" && probe.running) {
    return timer.pass(`still running and answering after ${replies + 1} replies`);
  }
  if (again.kind === "response") {
    return timer.fail(`the plugin exited (${formatExit(probe.exit)}) right after ${replies + 1} replies`);
  }
  return timer.fail(
    noAnswer(again, `a further describe after ${replies} replies`, probe, context.options.describeTimeoutMs),
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
