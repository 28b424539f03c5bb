import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type PostgresServer,
  postgresBinDir,
  startPostgres,
} from "../../../../../tooling/test-support/src/postgres-server.js";
import { requirePrerequisite, skipWithout } from "../../../../../tooling/test-support/src/prerequisite.js";
import { PostgresStore } from "../../../src/local/store/postgres/postgres-store.js";
import { storageSemantics } from "../storage-semantics.js";

describe.skipIf(skipWithout(postgresBinDir() !== undefined))("StorageProvider on PostgreSQL", () => {
  let server: PostgresServer;
  let admin: pg.Client;
  let databases = 0;
  let url = "";

  beforeAll(async () => {
    requirePrerequisite(
      postgresBinDir() !== undefined,
      "PostgreSQL is not installed (apt-get install postgresql)",
    );
    server = await startPostgres();
    admin = new pg.Client(server.url);
    await admin.connect();
  }, 60_000);
  afterAll(async () => {
    await admin?.end();
    await server?.stop();
  });

  storageSemantics({
    // A database of its own per test: the store creates its table on first use. Its
    // locale sorts text as people read it ("a-1" after "B"), unlike the stores' byte order.
    open: async (now) => {
      const name = `semantics_${++databases}`;
      await admin.query(
        `CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`,
      );
      url = server.url.replace(/\/postgres$/, `/${name}`);
      return PostgresStore.connect(url, { now });
    },
    reopen: (now) => PostgresStore.connect(url, { now }),
  });

  it("creates its table once when several processes' stores connect to a new database at once", async () => {
    await admin.query("CREATE DATABASE first_use");
    const firstUse = server.url.replace(/\/postgres$/, "/first_use");
    const stores = await Promise.all(Array.from({ length: 8 }, () => PostgresStore.connect(firstUse)));
    try {
      const written = await stores[0]?.put("ns", "kv", "k", { valueJson: "1", sizeBytes: 1 });
      expect(written?.ok).toBe(true);
      expect((await stores[7]?.get("ns", "kv", "k"))?.valueJson).toBe("1");
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});
