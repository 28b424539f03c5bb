import { createRequire } from "node:module";
import { join } from "node:path";
import type { ProviderSet } from "../providers/provider.js";
import { AgentProvider, type AgentProviderOptions } from "./agent/agent-provider.js";
import { type Clock, systemClock } from "./clock.js";
import { type EmbeddingsLimits, EmbeddingsProvider } from "./embeddings/embeddings-provider.js";
import { FilesProvider } from "./files-provider.js";
import type { FixtureLine } from "./fixtures/fixture-line.js";
import { loadFixtures } from "./fixtures/load-fixtures.js";
import { withFixtures } from "./fixtures/with-fixtures.js";
import { BlobDir } from "./http/blob-dir.js";
import { LoopbackServer } from "./http/loopback-server.js";
import { UrlSigner } from "./http/url-signer.js";
import { type ImageLimits, ImageProvider } from "./image/image-provider.js";
import { createResponder, type SamplingConfig, samplingConfigFromEnv } from "./sampling/sampling-config.js";
import { type SamplingLimits, SamplingProvider } from "./sampling/sampling-provider.js";
import { StorageProvider } from "./storage-provider.js";
import { LocalStore } from "./store/local-store.js";
import { builtinSqliteDriver } from "./store/sqlite/builtin-driver.js";
import { type WasmSqliteModule, wasmSqliteDriver } from "./store/sqlite/wasm-driver.js";
import { UploadProvider } from "./upload-provider.js";

/** Options of {@link createLocalProviders}. */
export interface LocalProvidersOptions {
  /**
   * The dev profile directory: `storage.db` (KV and file metadata), `files/` (object
   * blobs) and `uploads/` (transient uploads, removed on close) live here.
   */
  dataDir: string;
  /** Default: from `env` via {@link samplingConfigFromEnv} (echo when nothing is set). */
  sampling?: SamplingConfig;
  samplingLimits?: SamplingLimits;
  /** Read for the sampling configuration when `sampling` is not given. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Largest KV value (serialized JSON). Default 1 MiB. */
  maxValueBytes?: number;
  /** Largest file object. Default 100 MiB. */
  maxObjectBytes?: number;
  /** Largest negotiated `host/uploadFile`. Default 100 MiB. */
  maxUploadBytes?: number;
  /** Raw bytes of an inline `host/uploadFile`. Default 8 MiB. */
  maxInlineUploadBytes?: number;
  /** Uploads one invoke may start (`host/uploadFile`); one more is -32211. Default 20. */
  maxUploadsPerInvoke?: number;
  /** Caps of `image/*` (images per request, per invoke, per session). */
  imageLimits?: ImageLimits;
  /** Caps of `embeddings/create` (inputs, tokens per input and call, the session's token pool). */
  embeddingsLimits?: EmbeddingsLimits;
  /** Options of the agent sessions (session cap, reply size, granted tools). */
  agent?: Omit<AgentProviderOptions, "responder" | "now">;
  /**
   * Mock fixtures (a JSONL file path or parsed lines) that answer reverse calls before
   * the local providers do: first matching line wins, a line without `match` is the default.
   */
  fixtures?: string | readonly FixtureLine[];
  /** The time source of TTLs and URL expiry (tests move it). */
  now?: Clock;
}

/** The local providers plus what they own. */
export interface LocalProviders {
  /** Pass as `providers` to `spawnPlugin`; one set can serve many plugins. */
  readonly providers: ProviderSet;
  /** The storage database (for inspection in tests and tools). */
  readonly store: LocalStore;
  /** The loopback server behind presigned URLs (starts on the first URL). */
  readonly server: LoopbackServer;
  /** Stops the server, closes the database and removes transient uploads. */
  close(): Promise<void>;
}

/**
 * The embedded default providers for development: `storage/*` on SQLite, `files/*` with
 * presigned loopback URLs and blobs on disk, `host/uploadFile`, `sampling/createMessage`
 * (echo, script or OpenAI-compatible relay), `image/*` (deterministic PNGs at loopback
 * URLs), `embeddings/create` (feature-hashing vectors) and `agent/*` (scripted sessions
 * replying through the sampling responder); optionally fronted by mock fixtures.
 *
 * @throws Error when the sampling configuration is unusable (bad script, bad URL).
 * @throws FixtureError when the fixture file cannot be read or has a bad line.
 */
export function createLocalProviders(options: LocalProvidersOptions): LocalProviders {
  const now = options.now ?? systemClock;
  const responder = createResponder(options.sampling ?? samplingConfigFromEnv(options.env));
  const fixtures = typeof options.fixtures === "string" ? loadFixtures(options.fixtures) : options.fixtures;
  const driver = builtinSqliteDriver() ?? wasmSqliteDriver(requireWasmSqlite());
  const store = new LocalStore(join(options.dataDir, "storage.db"), { now, driver });
  const server = new LoopbackServer(new UrlSigner({ now }));
  const fileBlobs = new BlobDir(join(options.dataDir, "files"));
  const uploadBlobs = new BlobDir(join(options.dataDir, "uploads"));
  // Every family of core's table, so a new family without a local provider does not compile.
  const local: Required<ProviderSet> = {
    storage: new StorageProvider({ store, maxValueBytes: options.maxValueBytes, now }),
    files: new FilesProvider({
      store,
      blobs: fileBlobs,
      server,
      maxObjectBytes: options.maxObjectBytes,
      now,
    }),
    upload: new UploadProvider({
      blobs: uploadBlobs,
      server,
      maxUploadBytes: options.maxUploadBytes,
      maxInlineBytes: options.maxInlineUploadBytes,
      maxFilesPerInvoke: options.maxUploadsPerInvoke,
      now,
    }),
    sampling: new SamplingProvider(responder, options.samplingLimits),
    image: new ImageProvider({ server, ...options.imageLimits, now }),
    embeddings: new EmbeddingsProvider(options.embeddingsLimits),
    agent: new AgentProvider({ ...options.agent, responder, now }),
  };
  const providers = fixtures ? withFixtures(local, fixtures) : local;
  let closed: Promise<void> | undefined;
  return {
    providers,
    store,
    server,
    close: () => {
      closed ??= (async () => {
        await server.close();
        store.close();
        uploadBlobs.destroy();
      })();
      return closed;
    },
  };
}

/**
 * The WebAssembly SQLite, for a host on a runtime without a SQLite of its own: a host opens
 * its store at once, synchronously, so it is required here, when the providers are made.
 * Not imported at the top: a plugin's bundle that imports this entry for
 * `mcpLocalFallback` alone must not load it at start.
 */
function requireWasmSqlite(): WasmSqliteModule {
  return createRequire(import.meta.url)("node-sqlite3-wasm") as WasmSqliteModule;
}
