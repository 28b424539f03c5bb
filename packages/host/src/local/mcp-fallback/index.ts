export {
  MCP_DATA_DIR_ENV,
  MCP_DATABASE_URL_ENV,
  MCP_STORE_SYNC_ENV,
  mcpDatabaseUrl,
  mcpDataDir,
  mcpStoreSync,
} from "./data-dir.js";
export {
  type McpLocalFallback,
  type McpLocalFallbackOptions,
  type McpLocalFamily,
  mcpLocalFallback,
} from "./mcp-local-fallback.js";
