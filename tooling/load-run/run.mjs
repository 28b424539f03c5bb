// pnpm load-run [--mode one|one-redis|three|all] [--sessions 200] [--seconds 20] [--force] [--json]
//
// The load run of --mcp-http replicas (see README.md): legacy sessions initializing and then
// calling tools in a loop, half the calls storage writes, against one replica or three behind
// a round-robin proxy, one of the three killed midway; then every acknowledged write read
// back. Reports calls/s, p50/p99, errors and acknowledged writes lost; exits 1 when a write
// was lost or a call not on the killed replica went unanswered, 3 when a mode's shared state
// does nothing in this build.
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { drive } from "./src/drive.mjs";
import { callTool, openSession } from "./src/mcp-session.mjs";
import { unsharedState } from "./src/probe.mjs";
import { startPostgres, startRedis, startReplica } from "./src/processes.mjs";
import { startProxy } from "./src/proxy.mjs";

/** The modes: what runs, and what they share. */
const MODES = {
  one: { replicas: 1, shared: false, describe: "one replica, no Redis or PostgreSQL" },
  "one-redis": { replicas: 1, shared: true, describe: "one replica with Redis and PostgreSQL" },
  three: {
    replicas: 3,
    shared: true,
    killOne: true,
    describe: "three replicas behind a round-robin proxy with Redis and PostgreSQL, one killed midway",
  },
};

/** Keys read back per call. */
const READ_BACK_BATCH = 200;

class ModeUnavailable extends Error {}

/** Runs one mode and answers its report. */
async function runMode(name, { sessions, seconds, force }) {
  const mode = MODES[name];
  const step = (what) => console.error(`[${name}] ${what}`);
  const stops = [];
  try {
    const env = {};
    if (mode.shared) {
      step("starting redis-server and PostgreSQL");
      const redis = await startRedis();
      stops.push(redis.stop);
      const postgres = await startPostgres();
      stops.push(postgres.stop);
      env.EXECUTA_MCP_REDIS_URL = redis.url;
      env.EXECUTA_MCP_DATABASE_URL = postgres.url;
      step("checking that two replicas share sessions and storage");
      const problems = await unsharedState(env, { sessions: true, storage: true });
      if (problems.length > 0 && !force) {
        throw new ModeUnavailable(
          `mode ${name} (${mode.describe}) cannot run in this build:\n- ${problems.join("\n- ")}\nRun the modes that work today (--mode one), or add --force to measure it anyway.`,
        );
      }
    }
    step(`starting ${mode.replicas} replica(s)`);
    const replicas = [];
    for (let i = 1; i <= mode.replicas; i += 1) {
      const replica = await startReplica(env, `replica-${i}`);
      replicas.push(replica);
      stops.push(() => replica.stop());
    }
    let url = replicas[0].url;
    if (mode.replicas > 1) {
      const proxy = await startProxy(replicas);
      stops.unshift(proxy.stop);
      url = proxy.url;
    }
    const kill = mode.killOne && setTimeout(() => replicas[0].kill(), (seconds * 1000) / 2);
    step(`driving ${sessions} sessions for ${seconds} s`);
    const loadAverageBefore = loadavg()[0];
    const load = await drive({ url, sessions, seconds });
    const loadAverageAfter = loadavg()[0];
    clearTimeout(kill);
    step(`reading back ${load.acknowledged.length} acknowledged writes`);
    const lost = await readBack(url, load.acknowledged);
    const { acknowledged: _keys, ...figures } = load;
    return {
      mode: name,
      describe: mode.describe,
      sessions,
      seconds,
      killed: mode.killOne ? replicas[0].name : null,
      // This machine's 1-minute load average: the figures depend on what else it runs.
      loadAverage: { before: loadAverageBefore, after: loadAverageAfter },
      ...figures,
      writesLost: lost.length,
      unanswered:
        load.sessionNotFound +
        load.rpcErrors +
        load.toolErrors +
        load.connectionErrors +
        Object.values(load.statuses).reduce((sum, count) => sum + count, 0),
    };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  }
}

/** The acknowledged keys that cannot be read back through `url`. */
async function readBack(url, keys) {
  const lost = [];
  for (let i = 0; i < keys.length; i += READ_BACK_BATCH) {
    const batch = keys.slice(i, i + READ_BACK_BATCH);
    lost.push(
      ...(await withRetries(async () => {
        const session = await openSession(url);
        return (await callTool(url, session, "missing", { keys_json: JSON.stringify(batch) })).missing;
      })),
    );
  }
  return lost;
}

/** A read-back call, tried again on a new session when the service refuses it (5 times). */
async function withRetries(attempt) {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (tries === 5) throw new Error(`reading back the acknowledged writes failed: ${error.message}`);
    }
  }
}

function print(report) {
  const statuses =
    Object.entries(report.statuses)
      .map(([status, n]) => `${n}×${status}`)
      .join(", ") || "none";
  console.log(`\n== ${report.mode}: ${report.describe}`);
  console.log(
    `   ${report.sessions} sessions for ${report.elapsedSeconds.toFixed(1)} s${report.killed ? `, ${report.killed} killed (SIGKILL) at ${report.seconds / 2} s` : ""}`,
  );
  console.log(
    `   load average (1 min) before / after: ${report.loadAverage.before.toFixed(1)} / ${report.loadAverage.after.toFixed(1)}`,
  );
  console.log(`   calls/s: ${report.callsPerSecond}  (${report.callsOk} tools/call answered with a result)`);
  console.log(
    `   latency p50 / p99: ${report.latencyMs.p50} ms / ${report.latencyMs.p99} ms (every request)`,
  );
  console.log(`   sessions opened: ${report.sessionsOpened}`);
  console.log(`   lost with the killed replica (in flight, 502): ${report.lostWithReplica}`);
  console.log(
    `   unanswered otherwise: ${report.unanswered} (session not found ${report.sessionNotFound}, JSON-RPC errors ${report.rpcErrors}, tool errors ${report.toolErrors}, connection errors ${report.connectionErrors}, other statuses: ${statuses})`,
  );
  console.log(
    `   writes acknowledged: ${report.writesAcknowledged}, lost on read-back: ${report.writesLost}`,
  );
}

async function main() {
  const { values } = parseArgs({
    options: {
      mode: { type: "string", default: "all" },
      sessions: { type: "string", default: "200" },
      seconds: { type: "string", default: "20" },
      force: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
    },
  });
  const names = values.mode === "all" ? Object.keys(MODES) : [values.mode];
  const unknown = names.filter((name) => !(name in MODES));
  if (unknown.length > 0) {
    console.error(`unknown mode ${unknown.join(", ")}: one of ${Object.keys(MODES).join(", ")}, all`);
    process.exit(2);
  }
  const options = { sessions: Number(values.sessions), seconds: Number(values.seconds), force: values.force };
  let exitCode = 0;
  const reports = [];
  for (const name of names) {
    try {
      const report = await runMode(name, options);
      reports.push(report);
      if (!values.json) print(report);
      if (report.writesLost > 0 || report.unanswered > 0) exitCode = Math.max(exitCode, 1);
    } catch (error) {
      if (!(error instanceof ModeUnavailable)) throw error;
      console.error(`\n${error.message}`);
      exitCode = 3;
    }
  }
  if (values.json) console.log(JSON.stringify(reports, null, 2));
  process.exit(exitCode);
}

await main();
