// Whether the shared state a mode configures is shared in this build: two replicas with the
// mode's environment, a legacy session opened on one and used on the other, a value written
// through one and read through the other. A variable that does nothing yet fails here, with
// a message saying which, rather than as a load full of 404s.
import { callTool, openSession } from "./mcp-session.mjs";
import { startReplica } from "./processes.mjs";

/** What is missing for `env` to share state across replicas; empty when nothing is. */
export async function unsharedState(env, { sessions, storage }) {
  const [a, b] = await Promise.all([startReplica(env, "probe-a"), startReplica(env, "probe-b")]);
  const problems = [];
  try {
    const onA = await openSession(a.url);
    if (sessions) {
      await callTool(b.url, onA, "ping", {}).catch((error) =>
        problems.push(
          `EXECUTA_MCP_REDIS_URL does not share legacy sessions in this build: a session opened on one replica is refused by another (${/HTTP \d+/.exec(error.message)?.[0] ?? error.message})`,
        ),
      );
    }
    if (storage) {
      const key = `probe-${Date.now()}`;
      await callTool(a.url, onA, "put", { key, value: "1" });
      const onB = await openSession(b.url);
      const { missing } = await callTool(b.url, onB, "missing", { keys_json: JSON.stringify([key]) });
      if (missing.length > 0) {
        problems.push(
          "EXECUTA_MCP_DATABASE_URL does not share storage in this build: a value written through one replica is not read through another",
        );
      }
    }
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
  return problems;
}
