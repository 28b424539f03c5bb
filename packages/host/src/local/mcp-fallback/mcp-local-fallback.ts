import { join } from "node:path";
import type { McpFallback, McpFallbackCall } from "@executa/core";
import type { ReverseCall, ReverseCallContext, ReverseProvider } from "../../providers/provider.js";
import { FilesProvider } from "../files-provider.js";
import { BlobDir } from "../http/blob-dir.js";
import { LoopbackServer } from "../http/loopback-server.js";
import { UrlSigner } from "../http/url-signer.js";
import { StorageProvider } from "../storage-provider.js";
import { LocalStore } from "../store/local-store.js";
import { mcpDataDir } from "./data-dir.js";

/** The families the local fallback can answer. */
export type McpLocalFamily = "storage" | "files";

/** Options of {@link mcpLocalFallback}. */
export interface McpLocalFallbackOptions {
  /**
   * The data folder (`storage.db`, `files/`). Default: `$EXECUTA_MCP_DATA_DIR`, else
   * `~/.executa/mcp/<plugin name>/` (see {@link mcpDataDir}).
   */
  dataDir?: string;
  /** The families to answer; default both. The others keep failing as not negotiated. */
  families?: readonly McpLocalFamily[];
  /** The user every scope belongs to. Default "local-user", as on the local dev host. */
  userId?: string;
  /** Read for `EXECUTA_MCP_DATA_DIR` when `dataDir` is not given. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Largest KV value (serialized JSON). Default 1 MiB. */
  maxValueBytes?: number;
  /** Largest file object. Default 100 MiB. */
  maxObjectBytes?: number;
}

/** The store and providers, opened on the first call. */
interface Opened {
  readonly store: LocalStore;
  readonly server: LoopbackServer;
  readonly providers: Readonly<Record<McpLocalFamily, ReverseProvider>>;
}

/**
 * An MCP fallback (see `ServerOptions.mcp`) answering `storage/*` and `files/*` from the
 * local host's providers: SQLite for keys and file metadata, blobs on disk, presigned
 * URLs on a loopback server inside the plugin's process. The folder is opened on the
 * first call (nothing is created for a plugin that never stores anything) and closed when
 * the plugin server stops; data persists from one run to the next.
 *
 * @example
 * serve(Notes, { mcp: { fallback: mcpLocalFallback() } });
 */
export function mcpLocalFallback(options: McpLocalFallbackOptions = {}): McpFallback {
  const userId = options.userId ?? "local-user";
  let opened: Opened | undefined;
  const open = (pluginName: string): Opened => {
    opened ??= openStore(options.dataDir ?? mcpDataDir(pluginName, options.env), options);
    return opened;
  };
  return {
    families: options.families ?? ["storage", "files"],
    handle(call: McpFallbackCall): unknown {
      const { providers } = open(call.pluginName);
      const family = call.method.startsWith("storage/") ? "storage" : "files";
      return providers[family].handle(reverseCall(call, userId));
    },
    async close() {
      const closing = opened;
      opened = undefined;
      if (!closing) return;
      await closing.server.close();
      closing.store.close();
    },
  };
}

function openStore(dataDir: string, options: McpLocalFallbackOptions): Opened {
  const store = new LocalStore(join(dataDir, "storage.db"));
  const server = new LoopbackServer(new UrlSigner());
  const providers = {
    storage: new StorageProvider({ store, maxValueBytes: options.maxValueBytes }),
    files: new FilesProvider({
      store,
      blobs: new BlobDir(join(dataDir, "files")),
      server,
      maxObjectBytes: options.maxObjectBytes,
    }),
  };
  return { store, server, providers };
}

/** The call as a host's provider sees it: no host, so the plugin's own invoke and budget. */
function reverseCall(call: McpFallbackCall, userId: string): ReverseCall {
  const wire = call.params.context as { invoke_id?: unknown } | undefined;
  const timeoutMs = call.timeoutMs ?? 30_000;
  const context: ReverseCallContext = {
    invokeId: typeof wire?.invoke_id === "string" ? wire.invoke_id : "mcp",
    tool: "",
    pluginName: call.pluginName,
    deadlineMs: Date.now() + timeoutMs,
    timeoutMs,
    userId,
    appId: undefined,
    signal: call.signal ?? new AbortController().signal,
  };
  return { method: call.method, params: call.params, context };
}
