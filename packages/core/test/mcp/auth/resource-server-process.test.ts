import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { answerOf, postMessage, type RawAnswer, type Served, serveHttpFixture } from "../http-harness.js";
import { type IdentityProvider, startIdentityProvider } from "./identity-provider.js";

// `--mcp-http` as an OAuth 2.1 resource server in a child process, against a real identity
// provider (oidc-provider) on 127.0.0.1: its metadata, the provider's access tokens, tokens
// signed with the provider's key for the cases it would not issue, and key rotation.
const MODERN = "2026-07-28";
/** The canonical URL clients reach the endpoint at (a proxy's, not the bound port). */
const RESOURCE = "https://mcp.test.example/mcp";
const METADATA_URL = "https://mcp.test.example/.well-known/oauth-protected-resource/mcp";

let idp: IdentityProvider;
const running: Served[] = [];

beforeAll(async () => {
  idp = await startIdentityProvider();
});
afterAll(() => idp.close());
afterEach(async () => {
  for (const served of running.splice(0)) await served.kill();
});

async function serve(): Promise<Served> {
  const served = await serveHttpFixture(["--mcp-http", "127.0.0.1:0"], {
    EXECUTA_MCP_AUTH_ISSUER: idp.issuer,
    EXECUTA_MCP_AUTH_RESOURCE: RESOURCE,
  });
  running.push(served);
  return served;
}

/** A modern-era (sessionless) `tools/call` carrying `token`. */
function call(url: string, token: string | undefined, name: string, args: object = {}): Promise<RawAnswer> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  };
  return postMessage(
    url,
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, _meta: meta } },
    {
      "mcp-protocol-version": MODERN,
      "mcp-method": "tools/call",
      "mcp-name": name,
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
    },
  );
}

const now = () => Math.floor(Date.now() / 1000);
/** Claims the provider would issue for this resource, before the case's changes. */
const claims = (changes: Record<string, unknown> = {}) => ({
  iss: idp.issuer,
  aud: RESOURCE,
  sub: "mcp-tests",
  scope: "notes:read",
  iat: now(),
  exp: now() + 300,
  ...changes,
});

/** The parameters of a `WWW-Authenticate: Bearer k="v", …` challenge. */
function challenge(answer: RawAnswer): Record<string, string> {
  const header = String(answer.headers["www-authenticate"] ?? "");
  expect(header).toMatch(/^Bearer /);
  return Object.fromEntries([...header.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

describe("MCP over HTTP as an OAuth 2.1 resource server", () => {
  it("publishes its protected-resource metadata without a token, bare and suffixed with /mcp", async () => {
    const { url } = await serve();
    for (const path of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp",
    ]) {
      const response = await fetch(new URL(path, url));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: [idp.issuer],
        bearer_methods_supported: ["header"],
        scopes_supported: ["notes:read"],
      });
    }
  });

  it("answers a request without a token 401 naming the metadata, and calls a tool with the provider's token", async () => {
    const { url } = await serve();
    const bare = await call(url, undefined, "wait", { ms: 1 });
    expect(bare.status).toBe(401);
    expect(challenge(bare)).toEqual({ resource_metadata: METADATA_URL });

    const token = await idp.token(RESOURCE, "notes:read");
    const answer = await call(url, token, "aborted");
    expect(answer.status).toBe(200);
    expect(answerOf(answer)).toMatchObject({ result: { structuredContent: { aborted: 0 } } });
  });

  it("checks the token on every request of a session, not only on initialize", async () => {
    const { url } = await serve();
    const token = await idp.token(RESOURCE, "notes:read");
    const init = await postMessage(
      url,
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      },
      { authorization: `Bearer ${token}` },
    );
    expect(init.status).toBe(200);
    const session = String(init.headers["mcp-session-id"]);
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    const without = await postMessage(url, list, { "mcp-session-id": session });
    expect(without.status).toBe(401);
    const withToken = await postMessage(url, list, {
      "mcp-session-id": session,
      authorization: `Bearer ${token}`,
    });
    expect(answerOf(withToken)).toMatchObject({ result: { tools: expect.any(Array) } });
  });

  it("refuses a tool whose scope the token lacks with 403 insufficient_scope, and serves the tools it may call", async () => {
    const { url } = await serve();
    const token = await idp.token(RESOURCE, "notes:write");
    const refused = await call(url, token, "aborted");
    expect(refused.status).toBe(403);
    expect(challenge(refused)).toMatchObject({
      error: "insufficient_scope",
      scope: "notes:read",
      resource_metadata: METADATA_URL,
    });
    expect(answerOf(refused)).toMatchObject({ error: { message: expect.stringContaining("notes:read") } });
    const allowed = await call(url, token, "wait", { ms: 1 });
    expect(answerOf(allowed)).toMatchObject({ result: { structuredContent: { waited: 1 } } });
  });

  it("refuses with 401 invalid_token: another audience, expired, another issuer, unsigned, an unknown key", async () => {
    const { url } = await serve();
    const { SignJWT, generateKeyPair } = await import("jose");
    const stranger = await generateKeyPair("RS256");
    const unsigned = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${Buffer.from(JSON.stringify(claims())).toString("base64url")}.`;
    const cases: Record<string, string> = {
      "another audience (issued by the provider)": await idp.token("https://other.example/mcp", "notes:read"),
      expired: await idp.sign(claims({ iat: now() - 7200, exp: now() - 3600 })),
      "another issuer": await idp.sign(claims({ iss: "https://evil.example" })),
      "unsigned (alg none)": unsigned,
      "an unknown key": await new SignJWT(claims())
        .setProtectedHeader({ alg: "RS256", kid: "stranger" })
        .sign(stranger.privateKey),
      "not a JWT": "opaque-token",
    };
    const refusals: Record<string, unknown> = {};
    for (const [what, token] of Object.entries(cases)) {
      const answer = await call(url, token, "aborted");
      refusals[what] = {
        status: answer.status,
        error: challenge(answer).error,
        metadata: challenge(answer).resource_metadata,
      };
    }
    const invalid = { status: 401, error: "invalid_token", metadata: METADATA_URL };
    expect(refusals).toEqual(Object.fromEntries(Object.keys(cases).map((what) => [what, invalid])));
    // Still serving, and a token expired within the clock tolerance (30 s) is accepted.
    const skewed = await idp.sign(claims({ iat: now() - 300, exp: now() - 5 }));
    expect((await call(url, skewed, "aborted")).status).toBe(200);
  });

  it("answers 503 while the issuer cannot be reached, and keeps serving", async () => {
    const nobody = createServer();
    await new Promise<void>((resolve) => nobody.listen(0, "127.0.0.1", resolve));
    const gone = `http://127.0.0.1:${(nobody.address() as AddressInfo).port}`;
    await new Promise((resolve) => nobody.close(resolve));
    const served = await serveHttpFixture(["--mcp-http", "127.0.0.1:0"], {
      EXECUTA_MCP_AUTH_ISSUER: gone,
      EXECUTA_MCP_AUTH_RESOURCE: RESOURCE,
    });
    running.push(served);
    const token = await idp.sign(claims({ iss: gone }));
    for (let i = 0; i < 2; i++) {
      const answer = await call(served.url, token, "aborted");
      expect(answer.status).toBe(503);
      expect(answer.headers["retry-after"]).toBe("5");
    }
    expect(served.stderr()).toContain(`cannot discover the keys of issuer ${gone}`);
  });

  it("follows the provider's key rotation: the new key's tokens are accepted, the retired key's refused", async () => {
    const { url } = await serve();
    const before = await idp.token(RESOURCE, "notes:read");
    expect((await call(url, before, "aborted")).status).toBe(200);
    await idp.rotateKeys();
    const after = await idp.token(RESOURCE, "notes:read");
    // An unknown key id refetches the key set, at most once per cooldown (5 s): retry until then.
    let status = 0;
    for (let attempt = 0; attempt < 40 && status !== 200; attempt++) {
      status = (await call(url, after, "aborted")).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(status).toBe(200);
    expect((await call(url, before, "aborted")).status).toBe(401);
  }, 30_000);
});
