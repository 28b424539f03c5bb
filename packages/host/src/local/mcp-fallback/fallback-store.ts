import { join } from "node:path";
import type { ReverseProvider } from "../../providers/provider.js";
import { FilesProvider } from "../files-provider.js";
import { BlobDir } from "../http/blob-dir.js";
import { LoopbackServer } from "../http/loopback-server.js";
import { UrlSigner } from "../http/url-signer.js";
import { StorageProvider } from "../storage-provider.js";
import { LocalStore } from "../store/local-store.js";

/** The families the local fallback can answer. */
export type McpLocalFamily = "storage" | "files";

/** The fallback's store and providers, once opened. */
export interface FallbackStore {
  readonly store: LocalStore;
  readonly server: LoopbackServer;
  readonly providers: Readonly<Record<McpLocalFamily, ReverseProvider>>;
}

/** Limits of the fallback's providers. */
export interface FallbackLimits {
  maxValueBytes?: number;
  maxObjectBytes?: number;
}

/**
 * Opens the fallback's store in `dataDir` (`storage.db`, `files/`) and its providers. This
 * module is imported on the first storage or files call only: a plugin that never makes
 * one loads no SQLite.
 */
export async function openFallbackStore(dataDir: string, limits: FallbackLimits): Promise<FallbackStore> {
  const store = await LocalStore.open(join(dataDir, "storage.db"));
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
  return { store, server, providers };
}
