import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { postgresBinDir } from "../../test-support/src/postgres-server.js";
import { requirePrerequisite, skipWithout } from "../../test-support/src/prerequisite.js";
import { REDIS_SERVER_MISSING, redisServerAvailable } from "../../test-support/src/redis-server.js";

// A smoke of the load-run tool itself (not a load run): one replica of the built plugin,
// a few sessions for two seconds, every acknowledged write read back.
const RUN = fileURLToPath(new URL("../run.mjs", import.meta.url));

describe("pnpm load-run", () => {
  it("drives sessions against a replica, counts the calls and reads every acknowledged write back", () => {
    const run = spawnSync(
      process.execPath,
      [RUN, "--mode", "one", "--sessions", "4", "--seconds", "2", "--json"],
      {
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const [report] = JSON.parse(run.stdout) as Record<string, number>[];
    expect(report).toMatchObject({
      mode: "one",
      sessions: 4,
      sessionsOpened: 4,
      writesLost: 0,
      unanswered: 0,
    });
    expect(report!.callsOk).toBeGreaterThan(0);
    expect(report!.writesAcknowledged).toBeGreaterThan(0);
    expect(report!.callsPerSecond).toBeGreaterThan(0);
    expect(run.stderr).toMatch(/\[one\] reading back \d+ acknowledged writes/);
  });

  it("refuses a mode it does not know, naming the modes", () => {
    const run = spawnSync(process.execPath, [RUN, "--mode", "five"], { encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/unknown mode five: one of one, one-redis, three, all/);
  });
});

const sharedStateServers = redisServerAvailable() && postgresBinDir() !== undefined;

describe.skipIf(skipWithout(sharedStateServers))("pnpm load-run --mode three", () => {
  beforeAll(() => {
    requirePrerequisite(redisServerAvailable(), REDIS_SERVER_MISSING);
    requirePrerequisite(
      postgresBinDir() !== undefined,
      "PostgreSQL is not installed: apt-get install -y postgresql",
    );
  });

  it("runs three replicas on Redis and PostgreSQL behind the proxy, kills one, and loses no acknowledged write", () => {
    const run = spawnSync(
      process.execPath,
      [RUN, "--mode", "three", "--sessions", "6", "--seconds", "4", "--json"],
      { encoding: "utf8", timeout: 180_000 },
    );
    // Exit 3 would say the replicas do not share sessions or storage; 1, that a write was
    // lost or a request not held by the killed replica went unanswered.
    expect(run.status, run.stderr).toBe(0);
    const [report] = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(report).toMatchObject({
      mode: "three",
      killed: "replica-1",
      sessionNotFound: 0,
      writesLost: 0,
      unanswered: 0,
    });
    expect(report!.writesAcknowledged).toBeGreaterThan(0);
  });
});
