import { buildPlugin, manifestOf, Plugin, Tool } from "@executa/decorators";
import { describe, expect, it } from "vitest";

// `@Tool({ scopes })`: the OAuth scopes a tool needs reach the plugin definition (where MCP
// over HTTP checks them), and stay out of the Executa manifest.
@Plugin({ name: "notes", version: "1.0.0", description: "Notes." })
class Notes {
  @Tool({ description: "Read a note.", scopes: ["notes:read", "notes:read"] })
  read() {
    return "note";
  }
  @Tool({ description: "Write a note.", scopes: ["notes:read", "notes:write"] })
  write() {
    return "ok";
  }
  @Tool({ description: "Ping." })
  ping() {
    return "pong";
  }
}

describe("@Tool({ scopes })", () => {
  it("gives the definition each scoped tool's scopes, once each", () => {
    expect(buildPlugin(Notes).toolScopes).toEqual({
      read: ["notes:read"],
      write: ["notes:read", "notes:write"],
    });
  });

  it("leaves the manifest as it was", () => {
    for (const tool of manifestOf(Notes).tools) expect(tool).not.toHaveProperty("scopes");
  });

  it("gives no toolScopes when no tool declares any", () => {
    @Plugin({ name: "open", version: "1.0.0", description: "Open." })
    class Open {
      @Tool({ description: "Ping." })
      ping() {
        return "pong";
      }
    }
    expect(buildPlugin(Open)).not.toHaveProperty("toolScopes");
  });
});
