import { MCP_HTTP_PATH } from "./http-address.js";
import { IssuerKeys } from "./issuer-keys.js";

/** Environment variable naming the OAuth 2.1 authorization server whose access tokens are accepted. */
export const MCP_AUTH_ISSUER_ENV = "EXECUTA_MCP_AUTH_ISSUER";

/**
 * Environment variable holding the canonical URL clients reach the MCP endpoint at (the
 * same for every replica behind one proxy): the audience tokens must be issued for.
 */
export const MCP_AUTH_RESOURCE_ENV = "EXECUTA_MCP_AUTH_RESOURCE";

/** Where RFC 9728 places protected-resource metadata. */
const METADATA_PATH = "/.well-known/oauth-protected-resource";

/** The endpoint acting as an OAuth 2.1 resource server. */
export interface McpAuthSettings {
  /** The issuer (`iss`) accepted, exactly as the authorization server names itself. */
  readonly issuer: string;
  /** The canonical URL of this MCP endpoint: tokens must name it in `aud`. */
  readonly resource: string;
  /** Seconds of clock difference accepted on `exp` and `nbf`; default 30. */
  readonly clockToleranceSec?: number;
  /** Least milliseconds between two key-set fetches caused by an unknown key id; default 5000. */
  readonly keysRefetchCooldownMs?: number;
}

/** A request the resource server refuses: 401 or 403 with its `WWW-Authenticate` challenge. */
export class AuthRefusal extends Error {
  constructor(
    readonly status: 401 | 403,
    message: string,
    readonly challenge: string,
  ) {
    super(message);
  }
}

/** What a verified token grants. */
export interface Grant {
  readonly subject: string | undefined;
  readonly scopes: ReadonlySet<string>;
}

/**
 * Verifies bearer JWTs for this resource (issuer, audience, expiry, signature by the
 * issuer's published keys) and checks the scopes a tool declares, answering refusals with
 * the challenges of RFC 6750 and RFC 9728 (`resource_metadata`, `error`, `scope`).
 */
export class ResourceServer {
  private readonly keys: IssuerKeys;
  /** The URL of this resource's metadata, named in every challenge. */
  readonly metadataUrl: string;

  constructor(
    private readonly settings: McpAuthSettings,
    private readonly scopesSupported: readonly string[],
  ) {
    this.keys = new IssuerKeys({
      issuer: settings.issuer,
      clockToleranceSec: settings.clockToleranceSec ?? 30,
      refetchCooldownMs: settings.keysRefetchCooldownMs ?? 5_000,
    });
    const resource = new URL(settings.resource);
    this.metadataUrl = `${resource.origin}${METADATA_PATH}${resource.pathname.replace(/\/$/, "")}`;
  }

  /**
   * Whether `path` is where this resource's metadata is served: bare, suffixed with the
   * resource's path (as a proxy forwards it) or with `/mcp` (as the server itself is reached).
   */
  servesMetadataAt(path: string): boolean {
    return (
      path === METADATA_PATH ||
      path === `${METADATA_PATH}${MCP_HTTP_PATH}` ||
      path === new URL(this.metadataUrl).pathname
    );
  }

  /** The protected-resource metadata document (RFC 9728). */
  metadata(): Record<string, unknown> {
    return {
      resource: this.settings.resource,
      authorization_servers: [this.settings.issuer],
      bearer_methods_supported: ["header"],
      ...(this.scopesSupported.length > 0 && { scopes_supported: this.scopesSupported }),
    };
  }

  /**
   * The grant of the bearer token in `authorization`. Throws {@link AuthRefusal} (401) for a
   * missing, malformed or invalid token, and a plain `Error` when the issuer's keys cannot
   * be had (the server's problem, not the caller's).
   */
  async authorize(authorization: string | undefined): Promise<Grant> {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? "")?.[1];
    if (token === undefined) {
      throw new AuthRefusal(
        401,
        "Unauthorized: send Authorization: Bearer <access token> from the authorization server named in the resource metadata",
        this.challenge({}),
      );
    }
    try {
      const claims = await this.keys.verify(token, this.settings.resource);
      return { subject: claims.sub, scopes: grantedScopes(claims) };
    } catch (error) {
      if (!IssuerKeys.isTokenError(error)) throw error;
      const reason = (error as Error).message;
      throw new AuthRefusal(
        401,
        `Unauthorized: invalid access token (${reason})`,
        this.challenge({ error: "invalid_token", error_description: reason }),
      );
    }
  }

  /** Throws {@link AuthRefusal} (403 `insufficient_scope`) unless `grant` holds every scope of `required`. */
  requireScopes(grant: Grant, required: readonly string[], what: string): void {
    const missing = required.filter((scope) => !grant.scopes.has(scope));
    if (missing.length === 0) return;
    throw new AuthRefusal(
      403,
      `Forbidden: ${what} needs scope ${missing.join(" ")}; ask the authorization server for a token with it`,
      this.challenge({
        error: "insufficient_scope",
        scope: required.join(" "),
        error_description: `${what} needs scope ${required.join(" ")}`,
      }),
    );
  }

  private challenge(params: Record<string, string>): string {
    const all: Record<string, string> = { ...params, resource_metadata: this.metadataUrl };
    const quoted = Object.entries(all).map(([name, value]) => `${name}="${value.replace(/["\\]/g, "'")}"`);
    return `Bearer ${quoted.join(", ")}`;
  }
}

/** The scopes of a token: `scope` (space-separated, RFC 9068) or an `scp` array. */
function grantedScopes(claims: Record<string, unknown>): ReadonlySet<string> {
  if (typeof claims.scope === "string") return new Set(claims.scope.split(" ").filter(Boolean));
  if (Array.isArray(claims.scp)) return new Set(claims.scp.filter((s): s is string => typeof s === "string"));
  return new Set();
}
