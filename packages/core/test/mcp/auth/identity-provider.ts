import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, importJWK, type JWK, type JWTPayload, SignJWT } from "jose";
import Provider from "oidc-provider";

// A real OpenID provider (oidc-provider) on 127.0.0.1 issuing JWT access tokens by the
// client credentials grant with a resource indicator, for the resource server's tests.

/** The client the tests obtain tokens as, and every scope it may be granted. */
const CLIENT = { id: "mcp-tests", secret: "mcp-tests-secret" };
export const ISSUABLE_SCOPES = ["notes:read", "notes:write"];

/** A running identity provider. */
export interface IdentityProvider {
  readonly issuer: string;
  /** A JWT access token for `resource` with `scope` (space-separated). */
  token(resource: string, scope: string): Promise<string>;
  /** A token signed with the provider's current key, with exactly these claims (for the cases it would not issue). */
  sign(claims: JWTPayload): Promise<string>;
  /** Replaces the signing key: the published key set then holds only the new one. */
  rotateKeys(): Promise<void>;
  close(): Promise<void>;
}

async function signingKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: crypto.randomUUID(), alg: "RS256", use: "sig" };
}

function provider(issuer: string, key: JWK): Provider {
  return new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
        scope: ISSUABLE_SCOPES.join(" "),
      },
    ],
    jwks: { keys: [key] },
    scopes: ISSUABLE_SCOPES,
    features: {
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: (_ctx, resource) => ({
          scope: ISSUABLE_SCOPES.join(" "),
          audience: resource,
          accessTokenFormat: "jwt",
          accessTokenTTL: 300,
          jwt: { sign: { alg: "RS256" } },
        }),
      },
    },
  });
}

/** Starts the provider on a free port of 127.0.0.1. */
export async function startIdentityProvider(): Promise<IdentityProvider> {
  let current: Provider | undefined;
  const server: Server = createServer((req, res) => {
    if (current) current.callback()(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let key = await signingKey();
  current = provider(issuer, key);
  return {
    issuer,
    async token(resource, scope) {
      const response = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ grant_type: "client_credentials", resource, scope }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!response.ok || body.access_token === undefined)
        throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async sign(claims) {
      return new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: key.kid as string })
        .sign(await importJWK(key, "RS256"));
    },
    async rotateKeys() {
      key = await signingKey();
      current = provider(issuer, key);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
