import type * as Crypto from "node:crypto";
import { createRequire } from "node:module";

/** The hash algorithms the tools accept (the reference's list, in its order). */
export const HASH_ALGORITHMS = ["sha256", "md5", "sha1", "sha512"] as const;
export type HashAlgorithm = (typeof HASH_ALGORITHMS)[number];

let crypto: typeof Crypto | undefined;

/** Hex digest of `text` as UTF-8. */
export function hashHex(text: string, algorithm: HashAlgorithm): string {
  // node:crypto costs ~5 ms to load; only a hashing call pays it, not every start.
  crypto ??= createRequire(import.meta.url)("node:crypto") as typeof Crypto;
  return crypto.createHash(algorithm).update(text, "utf8").digest("hex");
}
