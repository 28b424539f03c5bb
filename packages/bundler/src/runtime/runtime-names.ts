/**
 * The runtimes a binary can carry, by name: a new runtime is its module, its name here and
 * its line in the `RUNTIMES` table (which must hold every name, by type).
 */
export const RUNTIME_NAMES = ["node", "bun"] as const;

/** The runtimes a binary can carry (see `RUNTIME_NAMES`). */
export type RuntimeName = (typeof RUNTIME_NAMES)[number];
