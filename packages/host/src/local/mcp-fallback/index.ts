export { MCP_DATA_DIR_ENV, mcpDataDir } from "./data-dir.js";
export { type McpLocalFallbackOptions, type McpLocalFamily, mcpLocalFallback } from "./mcp-local-fallback.js";
