import { describe, expect, it } from "vitest";
import { McpHttpSettingError, mcpHttpSettingsFromEnv } from "../../../src/mcp/http/http-env.js";

// EXECUTA_MCP_REDIS_URL as read from the environment.
describe("EXECUTA_MCP_REDIS_URL", () => {
  it("is read when set to a redis:// or rediss:// URL, and absent otherwise", () => {
    expect(mcpHttpSettingsFromEnv({ EXECUTA_MCP_REDIS_URL: "redis://127.0.0.1:6379/2" }).redisUrl).toBe(
      "redis://127.0.0.1:6379/2",
    );
    expect(mcpHttpSettingsFromEnv({ EXECUTA_MCP_REDIS_URL: " rediss://cache.example:6380 " }).redisUrl).toBe(
      "rediss://cache.example:6380",
    );
    expect(mcpHttpSettingsFromEnv({}).redisUrl).toBeUndefined();
    expect(mcpHttpSettingsFromEnv({ EXECUTA_MCP_REDIS_URL: "" }).redisUrl).toBeUndefined();
  });

  it.each(["127.0.0.1:6379", "http://cache.example", "postgres://u:hunter2@db/x"])("refuses %j", (url) => {
    const read = () => mcpHttpSettingsFromEnv({ EXECUTA_MCP_REDIS_URL: url });
    expect(read).toThrow(McpHttpSettingError);
    expect(read).toThrow(/EXECUTA_MCP_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
  });

  it("does not repeat a password it refuses", () => {
    expect(() => mcpHttpSettingsFromEnv({ EXECUTA_MCP_REDIS_URL: "postgres://u:hunter2@db/x" })).toThrow(
      /"postgres:\/\/\*\*\*@db\/x"/,
    );
  });
});
