import { serve } from "@executa/decorators";
import { mcpLocalFallback } from "@executa/host/local";
import { IssueTracker } from "./plugin.js";

// Under MCP, storage comes from a local store (SQLite in WebAssembly) in the plugin's data folder.
serve(IssueTracker, { mcp: { fallback: mcpLocalFallback() } });
