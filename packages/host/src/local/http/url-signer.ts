import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { type Clock, systemClock } from "../clock.js";

/** What {@link UrlSigner.verify} found. */
export type SignatureCheck = "ok" | "expired" | "invalid";

/**
 * HMAC-SHA256 signatures for presigned URLs: each covers the HTTP method, the resource
 * path and the expiry, so a URL cannot be reused for another object, another method or
 * after it expired.
 */
export class UrlSigner {
  private readonly secret: Buffer;
  private readonly now: Clock;

  /**
   * @param options - `secret`: the key, 32 random bytes per signer by default; `now`: the
   *   clock expiries are read from.
   */
  constructor(options: { secret?: Buffer; now?: Clock } = {}) {
    this.secret = options.secret ?? randomBytes(32);
    this.now = options.now ?? systemClock;
  }

  /** The signature of (method, resource, expiresAt), base64url. */
  sign(method: string, resource: string, expiresAt: number): string {
    return createHmac("sha256", this.secret)
      .update(`${method}\n${resource}\n${expiresAt}`)
      .digest("base64url");
  }

  /** Checks a signature; a valid one past its expiry is "expired". */
  verify(
    method: string,
    resource: string,
    expiresAt: string | null,
    signature: string | null,
  ): SignatureCheck {
    if (expiresAt === null || signature === null || !/^\d+$/.test(expiresAt)) return "invalid";
    const expected = Buffer.from(this.sign(method, resource, Number(expiresAt)));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
    return Number(expiresAt) <= this.now() ? "expired" : "ok";
  }
}
