import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isHostError } from "../../../src/errors/host-error.js";
import { LocalStore } from "../../../src/local/store/local-store.js";
import { loadWasmSqliteDriver } from "../../../src/local/store/sqlite/load-driver.js";
import { tempDir } from "../../helpers/calls.js";

// Real processes on one database file (the built store): what a dev host and an MCP
// fallback rely on where the runtime has no SQLite of its own, SQLite in WebAssembly
// writing through Node's fs (its own file lock and journal recovery are what is tested).
const wasmSqliteDriver = await loadWasmSqliteDriver();
const PROCESS = fileURLToPath(new URL("./store-process.mjs", import.meta.url));

function runStore(
  ...args: string[]
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PROCESS, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe("LocalStore on a file shared by processes", () => {
  let dir: ReturnType<typeof tempDir>;
  let db: string;
  beforeEach(() => {
    dir = tempDir();
    db = join(dir.path, "data", "storage.db");
  });
  afterEach(() => dir.remove());

  it("two processes incrementing one counter with if_match lose no write", async () => {
    const seed = new LocalStore(db, { driver: wasmSqliteDriver });
    seed.put("ns", "kv", "counter", { valueJson: "0", sizeBytes: 1 });
    seed.close();
    const runs = await Promise.all([
      runStore(db, "count", "counter", "60"),
      runStore(db, "count", "counter", "60"),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const store = new LocalStore(db, { driver: wasmSqliteDriver });
    try {
      expect(store.get("ns", "kv", "counter")).toMatchObject({ valueJson: "120", generation: 121 });
    } finally {
      store.close();
    }
  }, 120_000);

  it("a process killed inside a transaction: the commit before it persists, the cut one is rolled back, and the store opens again", async () => {
    const setup = new LocalStore(db, { driver: wasmSqliteDriver });
    setup.put("ns", "kv", "other", { valueJson: "1", sizeBytes: 1 });
    setup.close();
    const crash = await runStore(db, "crash", "k");
    expect(crash.signal, crash.stderr).toBe("SIGKILL");
    // What the killed process left: its lock (a folder) and the rollback journal.
    expect(existsSync(`${db}.lock`)).toBe(true);
    expect(existsSync(`${db}-journal`)).toBe(true);
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(`${db}.lock`, longAgo, longAgo);

    const store = new LocalStore(db, { driver: wasmSqliteDriver });
    try {
      expect(store.get("ns", "kv", "k")?.valueJson).toBe('"kept"');
      expect(store.get("ns", "kv", "other")?.valueJson).toBe("1");
      expect(store.put("ns", "kv", "k", { valueJson: '"next"', sizeBytes: 6 })).toMatchObject({ ok: true });
      expect(existsSync(`${db}.lock`)).toBe(false);
    } finally {
      store.close();
    }
  }, 60_000);

  describe("a process killed after its transaction wrote pages into the file", () => {
    const ENTRIES = 150;

    /** Runs the crash and checks it left what a real one leaves: torn pages, its journal, its lock (aged). */
    async function crashMidWrite(): Promise<void> {
      const crash = await runStore(db, "crash-spilled", String(ENTRIES));
      expect(crash.signal, crash.stderr).toBe("SIGKILL");
      expect(readFileSync(db).includes('"lost.'), "the dead transaction's pages are in the file").toBe(true);
      expect(existsSync(`${db}-journal`)).toBe(true);
      const longAgo = new Date(Date.now() - 60_000);
      utimesSync(`${db}.lock`, longAgo, longAgo);
    }

    function expectAllKept(store: LocalStore): void {
      const { items } = store.list("ns", { limit: ENTRIES + 1 });
      expect(items).toHaveLength(ENTRIES);
      expect(items.filter((entry) => !entry.valueJson?.startsWith('"kept.'))).toEqual([]);
      expect(existsSync(`${db}-journal`)).toBe(false);
    }

    it("the next open rolls the journal back: every entry as committed", async () => {
      await crashMidWrite();
      const store = new LocalStore(db, { driver: wasmSqliteDriver });
      try {
        expectAllKept(store);
        expect(store.put("ns", "kv", "k0", { valueJson: "1", sizeBytes: 1 })).toMatchObject({ ok: true });
      } finally {
        store.close();
      }
    }, 60_000);

    it("a store already open rolls it back once the lock is stale, before it reads", async () => {
      const store = new LocalStore(db, { driver: wasmSqliteDriver });
      try {
        await crashMidWrite();
        expectAllKept(store);
        expect(store.get("ns", "kv", "k1")?.generation).toBe(1);
      } finally {
        store.close();
      }
    }, 60_000);
  });

  it("a lock another process holds past the wait fails with STORE_LOCKED, naming the file and the fix", () => {
    new LocalStore(db, { driver: wasmSqliteDriver }).close();
    mkdirSync(`${db}.lock`);
    const failure = (() => {
      try {
        new LocalStore(db, { driver: wasmSqliteDriver }).close();
      } catch (error) {
        return error;
      }
    })();
    expect(isHostError(failure, "STORE_LOCKED")).toBe(true);
    expect((failure as Error).message).toContain(`remove ${db}.lock`);
    expect((failure as { details: unknown }).details).toEqual({ path: db });
  }, 30_000);
});
