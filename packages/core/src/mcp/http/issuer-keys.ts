import type { JWTPayload, JWTVerifyGetKey } from "jose";

/** The part of `jose` the resource server uses: loaded only once an issuer is configured. */
type Jose = typeof import("jose");

/**
 * The module name kept out of the bundler's sight: a plugin bundle that never serves an
 * issuer's tokens must not carry `jose`; one that does resolves it at run time.
 */
const JOSE_MODULE = "jose";

/** `jose` error codes that blame the issuer's key set, not the token. */
const ISSUER_FAULTS = new Set(["ERR_JWKS_TIMEOUT", "ERR_JWKS_INVALID", "ERR_JOSE_GENERIC"]);

/** Where RFC 8414 and OpenID Connect publish an issuer's metadata, in the order tried. */
function discoveryUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, "");
  return [
    `${url.origin}${path}/.well-known/openid-configuration`,
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
  ];
}

/** How the issuer's signing keys are looked up and tokens verified. */
export interface IssuerKeysOptions {
  readonly issuer: string;
  /** Seconds of clock difference accepted on `exp` and `nbf`. */
  readonly clockToleranceSec: number;
  /**
   * Least time between two fetches of the key set caused by an unknown key id: a token
   * signed with a rotated-in key is accepted after at most this long, and forged key ids
   * cannot make the server hammer the issuer.
   */
  readonly refetchCooldownMs: number;
}

/**
 * The issuer's published keys: its metadata discovered once (OpenID Connect, then RFC 8414),
 * its JWKS fetched on first use and again when a token names a key not yet seen (rotation).
 */
export class IssuerKeys {
  private loading: Promise<{ jose: Jose; keys: JWTVerifyGetKey }> | undefined;

  constructor(private readonly options: IssuerKeysOptions) {}

  /**
   * Verifies a compact JWS signed by one of the issuer's keys (asymmetric algorithms only,
   * so `none` and HMAC are refused), issued by the issuer for `audience`, not expired.
   * Rejects with `jose`'s error for a bad token, with a plain `Error` when the issuer
   * cannot be reached or `jose` is missing.
   */
  async verify(token: string, audience: string): Promise<JWTPayload> {
    const { jose, keys } = await this.load();
    const { payload } = await jose.jwtVerify(token, keys, {
      issuer: this.options.issuer,
      audience,
      clockTolerance: this.options.clockToleranceSec,
      algorithms: ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"],
      requiredClaims: ["exp"],
    });
    return payload;
  }

  /** Whether an error from {@link verify} is the token's fault (not the issuer's or ours). */
  static isTokenError(error: unknown): boolean {
    const code = (error as { code?: unknown })?.code;
    return typeof code === "string" && code.startsWith("ERR_J") && !ISSUER_FAULTS.has(code);
  }

  private load(): Promise<{ jose: Jose; keys: JWTVerifyGetKey }> {
    this.loading ??= this.discover();
    // A failed discovery is retried by the next request rather than remembered.
    this.loading.catch(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async discover(): Promise<{ jose: Jose; keys: JWTVerifyGetKey }> {
    const jose = await loadJose();
    const { issuer } = this.options;
    const problems: string[] = [];
    for (const url of discoveryUrls(issuer)) {
      const metadata = await fetchJson(url).catch((error: Error) => {
        problems.push(`${url}: ${error.message}`);
        return undefined;
      });
      if (metadata === undefined) continue;
      if (metadata.issuer !== issuer) {
        throw new Error(`${url} names issuer ${JSON.stringify(metadata.issuer)}, not ${issuer}`);
      }
      if (typeof metadata.jwks_uri !== "string") throw new Error(`${url} publishes no jwks_uri`);
      const keys = jose.createRemoteJWKSet(new URL(metadata.jwks_uri), {
        cooldownDuration: this.options.refetchCooldownMs,
      });
      return { jose, keys };
    }
    throw new Error(`cannot discover the keys of issuer ${issuer}: ${problems.join("; ")}`);
  }
}

async function loadJose(): Promise<Jose> {
  try {
    return (await import(JOSE_MODULE)) as Jose;
  } catch (error) {
    throw new Error(
      `verifying the issuer's tokens needs the jose package next to the plugin (npm install jose): ${(error as Error).message}`,
    );
  }
}

async function fetchJson(url: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    headers: { accept: "application/json" },
    redirect: "error",
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}
