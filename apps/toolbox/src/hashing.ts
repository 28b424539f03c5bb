import type * as Crypto from "node:crypto";

/** The hash algorithms the tools accept (the reference's list, in its order). */
export const HASH_ALGORITHMS = ["sha256", "md5", "sha1", "sha512"] as const;
export type HashAlgorithm = (typeof HASH_ALGORITHMS)[number];

let crypto: Promise<typeof Crypto> | undefined;

/**
 * A function giving the hex digest of a text as UTF-8. node:crypto costs ~5 ms to load, so
 * only the first hashing call pays it, not every start; a dynamic import does this without
 * a top-level `node:module` (createRequire), which itself loaded ~1 ms of Node internals at
 * every start.
 */
export async function hasher(algorithm: HashAlgorithm): Promise<(text: string) => string> {
  crypto ??= import("node:crypto");
  const { createHash } = await crypto;
  return (text) => createHash(algorithm).update(text, "utf8").digest("hex");
}
