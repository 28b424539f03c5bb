// The load: autocannon with one connection per legacy session, each initializing and then
// calling tools in a loop (a cheap call and a storage write in turn), as long as its session
// lasts; a session the server no longer knows (404) starts over, as a client does. Counts
// what came back and keeps the keys of the writes the service acknowledged.
import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import { callBody, initializeBody, mcpHeaders, messageOf } from "./mcp-session.mjs";

/** Calls a session makes before it initializes again (autocannon's request sequence). */
const CALLS_PER_SESSION = 1000;

/** The header the proxy sets on the 502 of a call whose replica died before answering. */
export const UPSTREAM_LOST_HEADER = "x-load-run-upstream-lost";

/** What came back, by kind, and the keys of the writes acknowledged. */
class Tally {
  counts = {
    sessionsOpened: 0,
    callsOk: 0,
    writesAcknowledged: 0,
    sessionNotFound: 0,
    lostWithReplica: 0,
    toolErrors: 0,
    rpcErrors: 0,
    statuses: {},
  };
  acknowledged = [];

  /** A request not answered: counted by why; its session starts over. */
  failed(status, context, headers) {
    if (status === 404) this.counts.sessionNotFound += 1;
    else if (status === 502 && headers[UPSTREAM_LOST_HEADER]) this.counts.lostWithReplica += 1;
    else this.counts.statuses[status] = (this.counts.statuses[status] ?? 0) + 1;
    context.session = undefined;
  }

  /** A tools/call answered 200: a result, a tool error or a JSON-RPC error. */
  answered(body, context) {
    const message = messageOf(body);
    if (message.error) this.counts.rpcErrors += 1;
    else if (message.result?.isError) this.counts.toolErrors += 1;
    else {
      this.counts.callsOk += 1;
      if (context.key) {
        this.counts.writesAcknowledged += 1;
        this.acknowledged.push(context.key);
      }
    }
  }
}

/** The request sequence of one session, for autocannon: initialize, initialized, then calls. */
function sessionRequests(path, tally) {
  const initialize = {
    method: "POST",
    path,
    headers: mcpHeaders(),
    body: initializeBody(),
    onResponse: (status, _body, context, headers) => {
      const id = headers["mcp-session-id"];
      if (status !== 200 || !id) return tally.failed(status, context, headers);
      tally.counts.sessionsOpened += 1;
      Object.assign(context, { session: id, prefix: randomUUID(), n: 0 });
    },
  };
  const initialized = {
    method: "POST",
    // Without a session, a falsy request makes autocannon start over with initialize.
    setupRequest: (req, context) =>
      context.session && {
        ...req,
        headers: mcpHeaders(context.session),
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      },
    onResponse: (status, _body, context, headers) => {
      if (status !== 202) tally.failed(status, context, headers);
    },
  };
  const call = {
    method: "POST",
    setupRequest: (req, context) => {
      if (!context.session) return undefined;
      context.n += 1;
      context.key = context.n % 2 === 0 ? `${context.prefix}-${context.n}` : undefined;
      const body = context.key
        ? callBody(context.n, "put", { key: context.key, value: String(context.n) })
        : callBody(context.n, "ping", {});
      return { ...req, headers: mcpHeaders(context.session), body };
    },
    onResponse: (status, body, context, headers) => {
      if (status === 200) tally.answered(body, context);
      else tally.failed(status, context, headers);
    },
  };
  return [initialize, initialized, ...Array.from({ length: CALLS_PER_SESSION }, () => call)];
}

/**
 * Drives `sessions` sessions against `url` (`http://…/mcp`) for `seconds`. Resolves to the
 * counts, autocannon's latency and the acknowledged writes' keys.
 */
export async function drive({ url, sessions, seconds }) {
  const tally = new Tally();
  const started = Date.now();
  const result = await autocannon({
    url,
    connections: sessions,
    duration: seconds,
    pipelining: 1,
    timeout: 30,
    requests: sessionRequests(new URL(url).pathname, tally),
  });
  const elapsedSeconds = (Date.now() - started) / 1000;
  return {
    ...tally.counts,
    elapsedSeconds,
    callsPerSecond: Math.round(tally.counts.callsOk / elapsedSeconds),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
    connectionErrors: result.errors,
    timeouts: result.timeouts,
    acknowledged: tally.acknowledged,
  };
}
