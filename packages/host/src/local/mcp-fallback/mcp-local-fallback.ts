import type { McpFallback, McpFallbackCall } from "@executa/core";
import type { ReverseCall, ReverseCallContext } from "../../providers/provider.js";
import type { StoreSync } from "../store/sqlite/store-database.js";
import { mcpDatabaseUrl, mcpDataDir, mcpStoreSync } from "./data-dir.js";
import type { FallbackStore, McpLocalFamily } from "./fallback-store.js";

export type { McpLocalFamily } from "./fallback-store.js";

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
  /**
   * A PostgreSQL URL (`postgres://…`): keys and file metadata live there, shared by every
   * process (replica) given the same URL, instead of in `storage.db`; files' bytes stay in
   * `dataDir/files/`. Needs the `pg` package installed beside `@executa/host`, loaded on
   * the first call. Default: `$EXECUTA_MCP_DATABASE_URL` (see {@link mcpDatabaseUrl}),
   * else none.
   */
  databaseUrl?: string;
  /**
   * When the SQLite store's commits reach the disk: `"normal"` survives the process being
   * killed, `"full"` also a power loss, at far fewer commits per second. Default:
   * `$EXECUTA_MCP_STORE_SYNC` (see {@link mcpStoreSync}), else `"normal"`.
   */
  sync?: StoreSync;
  /**
   * Read for `EXECUTA_MCP_DATA_DIR`, `EXECUTA_MCP_DATABASE_URL` and
   * `EXECUTA_MCP_STORE_SYNC` when `dataDir`, `databaseUrl` and `sync` are not given.
   * Default `process.env`.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Largest KV value (serialized JSON). Default 1 MiB. */
  maxValueBytes?: number;
  /** Largest file object. Default 100 MiB. */
  maxObjectBytes?: number;
}

/** The fallback {@link mcpLocalFallback} makes: an `McpFallback` that says whether it can serve. */
export interface McpLocalFallback extends McpFallback {
  /**
   * Whether storage can be served now, for a readiness probe: true without a database URL
   * (nothing is loaded then); with one, whether PostgreSQL answers (the store of plugin
   * `pluginName` is opened on the first call, as by a storage call).
   */
  ready(pluginName: string): Promise<boolean>;
}

/**
 * An MCP fallback (see `ServerOptions.mcp`) answering `storage/*` and `files/*` from the
 * local host's providers: SQLite for keys and file metadata, blobs on disk, presigned
 * URLs on a loopback server inside the plugin's process. The store is loaded and opened on
 * the first call (nothing is loaded or created for a plugin that never stores anything,
 * nor when it is served over Executa) and closed when the plugin server stops; data
 * persists from one run to the next.
 *
 * @example
 * serve(Notes, { mcp: { fallback: mcpLocalFallback() } });
 */
export function mcpLocalFallback(options: McpLocalFallbackOptions = {}): McpLocalFallback {
  const userId = options.userId ?? "local-user";
  const databaseUrl = options.databaseUrl ?? mcpDatabaseUrl(options.env);
  let opened: Promise<FallbackStore> | undefined;
  const open = (pluginName: string): Promise<FallbackStore> => {
    opened ??= import("./fallback-store.js")
      .then(({ openFallbackStore }) =>
        openFallbackStore(
          options.dataDir ?? mcpDataDir(pluginName, options.env),
          { ...options, sync: options.sync ?? mcpStoreSync(options.env) },
          databaseUrl,
        ),
      )
      .catch((error: unknown) => {
        opened = undefined; // the next call tries again (e.g. once another process let go of the file)
        throw error;
      });
    return opened;
  };
  return {
    families: options.families ?? ["storage", "files"],
    async handle(call: McpFallbackCall): Promise<unknown> {
      const { providers } = await open(call.pluginName);
      const family = call.method.startsWith("storage/") ? "storage" : "files";
      return providers[family].handle(reverseCall(call, userId));
    },
    async ready(pluginName) {
      if (databaseUrl === undefined) return true;
      try {
        return await (await open(pluginName)).ready();
      } catch {
        return false;
      }
    },
    async close() {
      const closing = opened;
      opened = undefined;
      if (!closing) return;
      const handles = await closing.catch(() => undefined);
      if (!handles) return;
      await handles.server.close();
      await handles.store.close();
    },
  };
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
