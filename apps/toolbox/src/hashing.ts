import { createHash } from "node:crypto";

/** The hash algorithms the tools accept (the reference's list, in its order). */
export const HASH_ALGORITHMS = ["sha256", "md5", "sha1", "sha512"] as const;
export type HashAlgorithm = (typeof HASH_ALGORITHMS)[number];

/** Hex digest of `text` as UTF-8. */
export function hashHex(text: string, algorithm: HashAlgorithm): string {
  return createHash(algorithm).update(text, "utf8").digest("hex");
}
