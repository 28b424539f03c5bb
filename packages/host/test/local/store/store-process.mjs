// One process using the built LocalStore on a database file, as a dev host or an MCP
// fallback does. Usage: node store-process.mjs <db> <command> [args]
//   count <key> <n>  n read-modify-write increments of a seeded counter, each guarded by if_match
//   crash <key>      a committed put of <key>, then a write of "lost" killed before commit
//   crash-spilled <n> n committed entries, then a rewrite of them all killed after SQLite
//                     had written some of its pages into the database file (a tiny cache)
import sqlite from "node-sqlite3-wasm";
import { LocalStore, loadWasmSqliteDriver } from "../../../dist/local/index.js";

const [db, command, key, n] = process.argv.slice(2);
const store = new LocalStore(db, { driver: await loadWasmSqliteDriver() });

if (command === "count") {
  let conflicts = 0;
  for (let done = 0; done < Number(n); ) {
    const current = store.get("ns", "kv", key);
    // storage/set has no "only if absent": a guarded increment needs the entry to exist.
    if (!current) throw new Error(`count: seed ${key} first`);
    const next = JSON.stringify(Number(current.valueJson) + 1);
    const put = store.put("ns", "kv", key, { valueJson: next, sizeBytes: next.length }, current.etag);
    if (put.ok) done++;
    else conflicts++;
  }
  process.stdout.write(`${JSON.stringify({ conflicts })}\n`);
  store.close();
} else if (command === "crash") {
  store.put("ns", "kv", key, { valueJson: '"kept"', sizeBytes: 6 });
  const raw = new sqlite.Database(db);
  raw.exec("BEGIN IMMEDIATE");
  raw.run("UPDATE entries SET value = '\"lost\"' WHERE key = ?", [key]);
  raw.run("DELETE FROM entries WHERE key <> ?", [key]);
  process.kill(process.pid, "SIGKILL");
} else if (command === "crash-spilled") {
  const value = JSON.stringify("kept".padEnd(2000, "."));
  for (let i = 0; i < Number(key); i++)
    store.put("ns", "kv", `k${i}`, { valueJson: value, sizeBytes: value.length });
  const raw = new sqlite.Database(db);
  raw.exec("PRAGMA cache_size = 2");
  raw.exec("BEGIN IMMEDIATE");
  raw.run(`UPDATE entries SET value = '"${"lost".padEnd(2000, ".")}"'`);
  process.kill(process.pid, "SIGKILL");
}
