import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PostgresServer, postgresBinDir, startPostgres } from "../../src/postgres-server.js";
import { requirePrerequisite, skipWithout } from "../../src/prerequisite.js";

const bin = postgresBinDir();

describe.skipIf(skipWithout(bin !== undefined))("startPostgres", () => {
  let server: PostgresServer;
  beforeAll(async () => {
    requirePrerequisite(bin !== undefined, "PostgreSQL is not installed (apt-get install postgresql)");
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());

  const psql = (sql: string) =>
    execFileSync(join(bin ?? "", "psql"), [server.url, "-tAc", sql], { encoding: "utf8" }).trim();

  it("serves its URL on loopback with durability off", () => {
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    expect(psql("SELECT 6 * 7")).toBe("42");
    expect(psql("SHOW fsync")).toBe("off");
  });

  it("stops by PID and removes its cluster", async () => {
    const other = await startPostgres();
    const dataDir = execFileSync(join(bin ?? "", "psql"), [other.url, "-tAc", "SHOW data_directory"], {
      encoding: "utf8",
    }).trim();
    expect(existsSync(dataDir)).toBe(true);
    await other.stop();
    expect(existsSync(dataDir)).toBe(false);
    expect(() =>
      execFileSync(join(bin ?? "", "pg_isready"), ["-h", "127.0.0.1", "-p", String(other.port)]),
    ).toThrow();
  }, 60_000);
});
