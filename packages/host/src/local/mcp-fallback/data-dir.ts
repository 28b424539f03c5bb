import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { StoreSync } from "../store/sqlite/store-database.js";

/** The environment variable naming the data folder of a plugin served over MCP. */
export const MCP_DATA_DIR_ENV = "EXECUTA_MCP_DATA_DIR";

/**
 * Where the local MCP fallback of plugin `pluginName` keeps its data: `$EXECUTA_MCP_DATA_DIR`
 * when set (an MCP client's server config passes it in `env`), else
 * `~/.executa/mcp/<pluginName>/`. Each plugin gets its own folder by default.
 */
export function mcpDataDir(
  pluginName: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  home: string = homedir(),
): string {
  const fromEnv = env[MCP_DATA_DIR_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return resolve(fromEnv);
  return join(home, ".executa", "mcp", pluginName);
}

/** The environment variable naming the PostgreSQL database of a plugin served over MCP. */
export const MCP_DATABASE_URL_ENV = "EXECUTA_MCP_DATABASE_URL";

/**
 * The PostgreSQL URL (`postgres://user:password@host:port/database`) the local MCP fallback
 * keeps keys and file metadata in: `$EXECUTA_MCP_DATABASE_URL` when set, else undefined
 * (the SQLite file in the data folder).
 */
export function mcpDatabaseUrl(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  const url = env[MCP_DATABASE_URL_ENV]?.trim();
  return url === undefined || url === "" ? undefined : url;
}

/** The environment variable choosing when the fallback's SQLite commits reach the disk. */
export const MCP_STORE_SYNC_ENV = "EXECUTA_MCP_STORE_SYNC";

/**
 * When the local MCP fallback's SQLite commits reach the disk: `$EXECUTA_MCP_STORE_SYNC`
 * (`normal` or `full`, any case), else `"normal"`: a commit survives the process being
 * killed at once, a power loss once checkpointed; `full` syncs every commit, at a few
 * hundred commits per second instead of thousands.
 *
 * @throws TypeError for another value.
 */
export function mcpStoreSync(env: Readonly<Record<string, string | undefined>> = process.env): StoreSync {
  const value = env[MCP_STORE_SYNC_ENV]?.trim().toLowerCase();
  if (value === undefined || value === "" || value === "normal") return "normal";
  if (value === "full") return "full";
  throw new TypeError(`${MCP_STORE_SYNC_ENV} must be "normal" or "full", not "${env[MCP_STORE_SYNC_ENV]}"`);
}
