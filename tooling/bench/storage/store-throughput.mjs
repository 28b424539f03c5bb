// Throughput of the local host's storage database (LocalStore of the built @executa/host):
// N puts, N gets, every page of a listing, N deletes, on a file in a temp folder, each put
// and delete one committed (fsynced) transaction. Run after `pnpm --filter @executa/host build`:
//   node tooling/bench/storage/store-throughput.mjs [N=2000] [pageSize=100]
// Runs on the runtime's own SQLite where it has one (`bun tooling/bench/...` for bun:sqlite, a
// Node 22.13+ for node:sqlite), else WebAssembly; STORE_DRIVER=wasm forces WebAssembly.
// STORE_MODULE=<file> measures the LocalStore another module exports (e.g. an older build).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const importStart = performance.now();
const { LocalStore, loadWasmSqliteDriver } = await import(
  process.env.STORE_MODULE
    ? pathToFileURL(process.env.STORE_MODULE).href
    : new URL("../../../packages/host/dist/local/index.js", import.meta.url).href
);
console.log(`import           ${(performance.now() - importStart).toFixed(1)} ms`);

const count = Number(process.argv[2] ?? 2000);
const pageSize = Number(process.argv[3] ?? 100);
const dir = mkdtempSync(join(tmpdir(), "store-bench-"));

function timed(label, operations, work) {
  const start = performance.now();
  work();
  const ms = performance.now() - start;
  const rate = Math.round((operations / ms) * 1000);
  console.log(
    `${label.padEnd(16)} ${String(operations).padStart(6)} ops ${ms.toFixed(0).padStart(7)} ms ${String(rate).padStart(8)} ops/s`,
  );
}

try {
  const openStart = performance.now();
  const driver = process.env.STORE_DRIVER === "wasm" ? await loadWasmSqliteDriver() : undefined;
  // open() of an older build's LocalStore does not exist: its constructor was the open.
  const store = LocalStore.open
    ? await LocalStore.open(join(dir, "storage.db"), { driver })
    : new LocalStore(join(dir, "storage.db"));
  console.log(
    `open             ${(performance.now() - openStart).toFixed(1)} ms (${store.driver ?? "wasm"})`,
  );
  const key = (i) => `notes/${String(i).padStart(6, "0")}`;
  const value = JSON.stringify({ title: "a note", body: "x".repeat(200), tags: ["a", "b"] });
  timed("put", count, () => {
    for (let i = 0; i < count; i++)
      store.put("bench", "kv", key(i), { valueJson: value, sizeBytes: value.length });
  });
  timed("get", count, () => {
    for (let i = 0; i < count; i++)
      if (!store.get("bench", "kv", key(i))) throw new Error(`missing ${key(i)}`);
  });
  let pages = 0;
  timed(`list (${pageSize}/page)`, Math.ceil(count / pageSize), () => {
    let cursor;
    do {
      const page = store.list("bench", { prefix: "notes/", limit: pageSize, cursor });
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
  });
  if (pages !== Math.ceil(count / pageSize)) throw new Error(`${pages} pages`);
  timed("delete", count, () => {
    for (let i = 0; i < count; i++) store.delete("bench", "kv", key(i));
  });
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
