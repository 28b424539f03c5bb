import { describe, expect, it } from "vitest";
import {
  MCP_DATABASE_URL_ENV,
  MCP_STORE_SYNC_ENV,
  mcpDatabaseUrl,
  mcpStoreSync,
} from "../../src/local/mcp-fallback/data-dir.js";

describe("the MCP fallback's environment settings", () => {
  it("reads the database URL, none when unset or blank", () => {
    expect(mcpDatabaseUrl({ [MCP_DATABASE_URL_ENV]: " postgres://db/notes " })).toBe("postgres://db/notes");
    expect(mcpDatabaseUrl({ [MCP_DATABASE_URL_ENV]: "" })).toBeUndefined();
    expect(mcpDatabaseUrl({})).toBeUndefined();
  });

  it("syncs at checkpoints by default, every commit with full, and refuses anything else", () => {
    expect(mcpStoreSync({})).toBe("normal");
    expect(mcpStoreSync({ [MCP_STORE_SYNC_ENV]: "normal" })).toBe("normal");
    expect(mcpStoreSync({ [MCP_STORE_SYNC_ENV]: "FULL" })).toBe("full");
    expect(() => mcpStoreSync({ [MCP_STORE_SYNC_ENV]: "extra" })).toThrow(
      'EXECUTA_MCP_STORE_SYNC must be "normal" or "full", not "extra"',
    );
  });
});
