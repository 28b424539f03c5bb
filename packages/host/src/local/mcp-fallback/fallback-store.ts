import { join } from "node:path";
import type { ReverseProvider } from "../../providers/provider.js";
import { FilesProvider } from "../files-provider.js";
import { BlobDir } from "../http/blob-dir.js";
import { LoopbackServer } from "../http/loopback-server.js";
import { UrlSigner } from "../http/url-signer.js";
import { StorageProvider } from "../storage-provider.js";
import type { EntryStore } from "../store/entry-store.js";
import { LocalStore } from "../store/local-store.js";
import type { StoreSync } from "../store/sqlite/store-database.js";

/** The families the local fallback can answer. */
export type McpLocalFamily = "storage" | "files";

/** The fallback's store and providers, once opened. */
export interface FallbackStore {
  readonly store: EntryStore;
  /** Whether the store can serve now: its database answers (always, for the local file). */
  ready(): Promise<boolean>;
  readonly server: LoopbackServer;
  readonly providers: Readonly<Record<McpLocalFamily, ReverseProvider>>;
}

/** Limits of the fallback's providers, and when its SQLite commits reach the disk. */
export interface FallbackLimits {
  maxValueBytes?: number;
  maxObjectBytes?: number;
  sync?: StoreSync;
}

/**
 * Opens the fallback's store and its providers: keys and file metadata in PostgreSQL at
 * `databaseUrl` when given, else in `dataDir/storage.db` (SQLite); files' bytes in
 * `dataDir/files/` either way. This module is imported on the first storage or files call
 * only: a plugin that never makes one loads no SQLite and no PostgreSQL client.
 *
 * The bytes stay in a folder, not in a `bytea` column: they stream in and out without
 * being held in memory (a `bytea` value is read and written whole, hex-encoded, by `pg`),
 * and a folder was faster on every size measured: 1 MiB written (synced) in 14 ms and
 * read in 0.6 ms against 37 ms and 25 ms as `bytea`, 10 MiB in 50 ms and 12 ms against
 * 168 ms and 526 ms (PostgreSQL 15 on loopback, its fsync off). Replicas that serve one
 * another's files share that folder (a volume mounted as `EXECUTA_MCP_DATA_DIR`).
 */
export async function openFallbackStore(
  dataDir: string,
  limits: FallbackLimits,
  databaseUrl?: string,
): Promise<FallbackStore> {
  const { store, ready } = databaseUrl
    ? await openPostgres(databaseUrl)
    : {
        store: await LocalStore.open(join(dataDir, "storage.db"), { sync: limits.sync }),
        ready: async () => true,
      };
  const server = new LoopbackServer(new UrlSigner());
  const providers = {
    storage: new StorageProvider({ store, maxValueBytes: limits.maxValueBytes }),
    files: new FilesProvider({
      store,
      blobs: new BlobDir(join(dataDir, "files")),
      server,
      maxObjectBytes: limits.maxObjectBytes,
    }),
  };
  return { store, ready, server, providers };
}

async function openPostgres(url: string): Promise<Pick<FallbackStore, "store" | "ready">> {
  const { PostgresStore } = await import("../store/postgres/postgres-store.js");
  const store = await PostgresStore.connect(url);
  return { store, ready: () => store.ping() };
}
