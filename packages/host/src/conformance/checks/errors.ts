import { validateErrorObject } from "@executa/core/internal";
import type { CheckContext, CheckGroup } from "../check-context.js";
import { errorOf, formatAnswer, formatExit, noAnswer, stderrHint } from "../probe/outcome-text.js";
import type { ReplyOutcome, WireProbe } from "../probe/wire-probe.js";
import { type CheckResult, type CheckStatus, CheckTimer } from "../report.js";

const GROUP = "errors";

/** What a probe's answer earned. */
export interface Judgement {
  status: CheckStatus;
  reason: string;
}

/** What an error probe writes with: a live probe, or a batch conversation being written. */
export type ProbeWriter = Pick<WireProbe, "newId" | "send" | "sendRaw">;

/** One malformed or unanswerable input and what the spec expects back. */
export interface ErrorProbe {
  id: string;
  title: string;
  /** What the input is, for reasons ("a line of invalid JSON"). */
  what: string;
  /** Writes the input; returns the id the answer carries (`null` for an unreadable request). */
  send(probe: ProbeWriter): unknown;
  /** The error code the spec expects. */
  code: number;
  judge(answer: Record<string, unknown>): Judgement;
  /** The verdict when nothing comes back. */
  silence: CheckStatus;
}

/** PASS for the expected code, else `otherwise` with the answer named. */
function expectCode(code: number, otherwise: CheckStatus, label: string) {
  return (answer: Record<string, unknown>): Judgement => {
    const error = errorOf(answer);
    if (error?.code === code) {
      const problems = validateErrorObject(answer.error).map((p) => p.message);
      if (problems.length > 0)
        return { status: "WARN", reason: `answered ${code} (${label}), but ${problems.join("; ")}` };
      return { status: "PASS", reason: `answered ${code} (${label})` };
    }
    return { status: otherwise, reason: `answered ${formatAnswer(answer)}; expected ${code} (${label})` };
  };
}

/** The error probes, in the order they run; the batch conversation writes them too. */
export const ERROR_PROBES: readonly ErrorProbe[] = [
  {
    id: "parse-error",
    title: "-32700 for unparsable input",
    what: "a line of invalid JSON",
    send(probe) {
      probe.sendRaw('{"jsonrpc": "2.0", "id": 0, "method": "describe"');
      return null;
    },
    code: -32700,
    judge: expectCode(-32700, "WARN", "parse error"),
    silence: "FAIL",
  },
  {
    id: "invalid-request",
    title: "-32600 for a JSON value that is not a request",
    what: "the JSON value 42",
    send(probe) {
      probe.sendRaw("42");
      return null;
    },
    code: -32600,
    judge: expectCode(-32600, "WARN", "invalid request"),
    silence: "FAIL",
  },
  {
    id: "invalid-request-method",
    title: "-32600 for a request whose method is not a string",
    what: "a request with a numeric method",
    send(probe) {
      const id = probe.newId();
      probe.send({ jsonrpc: "2.0", id, method: 42 });
      return id;
    },
    code: -32600,
    judge: expectCode(-32600, "WARN", "invalid request"),
    silence: "FAIL",
  },
  {
    id: "method-not-found",
    title: "-32601 for an unknown method",
    what: "an unknown method",
    send(probe) {
      const id = probe.newId();
      probe.send({ jsonrpc: "2.0", id, method: "executa-check/no-such-method" });
      return id;
    },
    code: -32601,
    judge: expectCode(-32601, "FAIL", "method not found"),
    silence: "FAIL",
  },
  {
    id: "invalid-params",
    title: "-32602 for invoke params without `tool`",
    what: "invoke without `tool`",
    send(probe) {
      const id = probe.newId();
      probe.send({ jsonrpc: "2.0", id, method: "invoke", params: { arguments: {} } });
      return id;
    },
    code: -32602,
    judge: expectCode(-32602, "WARN", "invalid params"),
    silence: "FAIL",
  },
  {
    id: "unknown-tool",
    title: "-32601 for invoke of an unknown tool",
    what: "invoke of an unknown tool",
    send(probe) {
      const id = probe.newId();
      probe.send({
        jsonrpc: "2.0",
        id,
        method: "invoke",
        params: { tool: "executa-check-no-such-tool", arguments: {}, context: {} },
      });
      return id;
    },
    code: -32601,
    judge(answer) {
      const result = answer.result as Record<string, unknown> | undefined;
      if (!errorOf(answer) && result?.success === true) {
        return { status: "FAIL", reason: "reported success for a tool that does not exist" };
      }
      if (!errorOf(answer) && result?.success === false) {
        return {
          status: "WARN",
          reason:
            "answered success: false; the spec makes an unknown tool a -32601 error frame (a programmer error)",
        };
      }
      return expectCode(-32601, "WARN", "tool not found")(answer);
    },
    silence: "FAIL",
  },
];

/**
 * The JSON-RPC error handling the spec's error table asks for: -32700 / -32600 / -32601 /
 * -32602, each followed by a request the plugin must still answer (surviving bad input
 * matters as much as the code). A plugin that dies is restarted for the next probe.
 */
export const errorsGroup: CheckGroup = {
  id: GROUP,
  checks: ERROR_PROBES.map(({ id, title }) => ({ id, title })),
  async run(context) {
    const results: CheckResult[] = [];
    let probe: WireProbe | undefined;
    for (const spec of ERROR_PROBES) {
      if (!probe?.running) probe = await context.session({ initialize: true });
      results.push(await runProbe(spec, probe, context));
    }
    return results;
  },
};

async function runProbe(spec: ErrorProbe, probe: WireProbe, context: CheckContext): Promise<CheckResult> {
  const timer = new CheckTimer(GROUP, spec.id, spec.title);
  const timeoutMs = context.options.replyTimeoutMs;
  const replyId = spec.send(probe);
  const outcome: ReplyOutcome =
    replyId === null
      ? await probe
          .waitFor(
            () => probe.responses.find((r) => !r.claimed && (r.id === null || r.id === undefined)),
            timeoutMs,
          )
          .then((found) => {
            if (found.kind !== "found") return found;
            found.value.claimed = true;
            return { kind: "response" as const, frame: found.value.frame, ms: found.ms };
          })
      : await probe.waitForResponse(replyId, timeoutMs);
  let verdict: Judgement;
  if (outcome.kind === "response") {
    verdict = spec.judge(outcome.frame);
    if (replyId === null && outcome.frame.id === undefined) {
      verdict = worse(verdict, { status: "WARN", reason: `${verdict.reason}, but without "id": null` });
    }
  } else if (outcome.kind === "gone") {
    return timer.fail(
      `the plugin exited (${formatExit(outcome.exit ?? probe.exit)}) on ${spec.what}${stderrHint(probe)}`,
    );
  } else {
    verdict = { status: spec.silence, reason: `no answer to ${spec.what} within ${timeoutMs} ms` };
  }
  const ping = await probe.request("describe", undefined, timeoutMs);
  if (ping.kind !== "response") {
    return timer.fail(`after ${spec.what}: ${noAnswer(ping, "the next request", probe, timeoutMs)}`);
  }
  return timer.verdict(verdict.status, verdict.reason);
}

const RANK: Record<CheckStatus, number> = { PASS: 0, WARN: 1, FAIL: 2 };

function worse(a: Judgement, b: Judgement): Judgement {
  return RANK[b.status] > RANK[a.status] ? b : a;
}
