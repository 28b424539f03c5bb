import { describe, expect, it } from "vitest";
import { McpHttpSettingError, mcpHttpSettingsFromEnv } from "../../../src/mcp/http/http-env.js";
import { exposureProblem } from "../../../src/mcp/http/http-exposure.js";
import { ResourceServer } from "../../../src/mcp/http/resource-server.js";

// The resource server's settings as read from the environment, and the exposure rule that
// accepts an issuer in place of the static token.
const ISSUER = "https://login.example";
const RESOURCE = "https://mcp.example/mcp";

describe("EXECUTA_MCP_AUTH_* settings", () => {
  it("reads the issuer and the resource together", () => {
    expect(
      mcpHttpSettingsFromEnv({ EXECUTA_MCP_AUTH_ISSUER: ISSUER, EXECUTA_MCP_AUTH_RESOURCE: RESOURCE }),
    ).toMatchObject({ token: undefined, auth: { issuer: ISSUER, resource: RESOURCE } });
    expect(mcpHttpSettingsFromEnv({}).auth).toBeUndefined();
  });

  it.each([
    [{ EXECUTA_MCP_AUTH_ISSUER: ISSUER }, /go together/],
    [{ EXECUTA_MCP_AUTH_RESOURCE: RESOURCE }, /go together/],
    [
      { EXECUTA_MCP_AUTH_ISSUER: "login.example", EXECUTA_MCP_AUTH_RESOURCE: RESOURCE },
      /ISSUER must be an http\(s\) URL/,
    ],
    [
      { EXECUTA_MCP_AUTH_ISSUER: ISSUER, EXECUTA_MCP_AUTH_RESOURCE: "ftp://x/mcp" },
      /RESOURCE must be an http\(s\) URL/,
    ],
    [
      {
        EXECUTA_MCP_AUTH_ISSUER: ISSUER,
        EXECUTA_MCP_AUTH_RESOURCE: RESOURCE,
        EXECUTA_MCP_HTTP_TOKEN: "s3cret",
      },
      /both set: use the static token or the issuer's access tokens, not both/,
    ],
  ])("refuses %j", (env, message) => {
    expect(() => mcpHttpSettingsFromEnv(env)).toThrow(McpHttpSettingError);
    expect(() => mcpHttpSettingsFromEnv(env)).toThrow(message);
  });

  it("lets a non-loopback interface be served with an issuer instead of a token", () => {
    expect(exposureProblem("0.0.0.0", undefined, false)).toMatch(/EXECUTA_MCP_AUTH_ISSUER/);
    expect(exposureProblem("0.0.0.0", ISSUER, false)).toBeUndefined();
  });
});

describe("the protected-resource metadata's address", () => {
  it("inserts the well-known path before the resource's path, and serves the forms a proxy or client asks", () => {
    const server = new ResourceServer({ issuer: ISSUER, resource: "https://tools.example/team/mcp" }, []);
    expect(server.metadataUrl).toBe("https://tools.example/.well-known/oauth-protected-resource/team/mcp");
    for (const path of ["", "/mcp", "/team/mcp"]) {
      expect(server.servesMetadataAt(`/.well-known/oauth-protected-resource${path}`)).toBe(true);
    }
    expect(server.servesMetadataAt("/.well-known/oauth-protected-resource/other")).toBe(false);
  });
});
