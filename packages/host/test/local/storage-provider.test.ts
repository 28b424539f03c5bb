import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StorageProvider } from "../../src/local/storage-provider.js";
import { LocalStore } from "../../src/local/store/local-store.js";
import type { StoreSync } from "../../src/local/store/sqlite/store-database.js";
import { reverseCall, tempDir } from "../helpers/calls.js";
import { sqliteDrivers } from "../helpers/sqlite-drivers.js";
import { storageSemantics } from "./storage-semantics.js";

describe.each(await sqliteDrivers())("StorageProvider on $name", (driver) => {
  let dir: ReturnType<typeof tempDir> | undefined;
  const file = () => {
    dir ??= tempDir();
    return join(dir.path, "storage.db");
  };
  describe("semantics", () =>
    storageSemantics({
      open: async (now) => new LocalStore(file(), { now, driver }),
      reopen: async (now) => new LocalStore(file(), { now, driver }),
      cleanUp: () => {
        dir?.remove();
        dir = undefined;
      },
    }));

  it("answers at once, without a promise (the SQLite path takes no extra turn)", () => {
    const store = new LocalStore(file(), { driver });
    try {
      const storage = new StorageProvider({ store });
      const set = storage.handle(reverseCall("storage/set", { scope: "tool", key: "k", value: 1 }));
      expect(set).not.toBeInstanceOf(Promise);
      expect(storage.handle(reverseCall("storage/get", { scope: "tool", key: "k" }))).toMatchObject({
        value: 1,
      });
    } finally {
      store.close();
      dir?.remove();
      dir = undefined;
    }
  });

  it("syncs every commit with sync: full, at checkpoints by default (WebAssembly: always every commit)", () => {
    // PRAGMA synchronous: 1 is NORMAL, 2 is FULL.
    const synchronous = (sync?: StoreSync) => {
      const db = driver.open(file(), { schema: "CREATE TABLE IF NOT EXISTS t (x)", sync });
      try {
        return db.all("PRAGMA synchronous", [])[0]?.synchronous;
      } finally {
        db.close();
      }
    };
    try {
      expect(synchronous()).toBe(driver.name === "wasm" ? 2 : 1);
      expect(synchronous("full")).toBe(2);
    } finally {
      dir?.remove();
      dir = undefined;
    }
  });

  it("journals in WAL mode on the runtime's SQLite, with a rollback journal on WebAssembly (no shared memory)", () => {
    const store = new LocalStore(file(), { driver });
    try {
      store.put("ns", "kv", "k", { valueJson: "1", sizeBytes: 1 });
      // The header's write version (byte 18): 1 for a rollback journal, 2 for WAL.
      const writeVersion = readFileSync(file())[18];
      expect(writeVersion).toBe(driver.name === "wasm" ? 1 : 2);
    } finally {
      store.close();
      dir?.remove();
      dir = undefined;
    }
  });
});
