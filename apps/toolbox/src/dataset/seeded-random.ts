/**
 * The reference plugin's pseudo-random generator: a 32-bit linear congruential generator
 * (multiplier 1664525, increment 1013904223, the Numerical Recipes constants), so the
 * same seed gives the same sequence on every run and every machine.
 *
 * The state is kept as a signed 32-bit integer exactly as the reference keeps it
 * (`(s * a + c) & 0xffffffff`); the product stays below 2^53, so the arithmetic is exact
 * in a double. Values lie in [0, 1]: 1 comes only from the state 0xffffffff, which the
 * sequence from seed 42 does not reach within the draws a 100 000-row dataset makes.
 */
export function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state * 1664525 + 1013904223) & 0xffffffff;
    return (state >>> 0) / 0xffffffff;
  };
}

/** Draw helpers over one generator, in the reference's order of draws. */
export interface Draws {
  /** An element of `list`, uniformly. */
  pick<T>(list: readonly T[]): T;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** The next raw value in [0, 1]. */
  next(): number;
}

export function drawsFrom(random: () => number): Draws {
  return {
    // min() only guards the unreachable value 1 (see seededRandom); it never changes a pick.
    pick: (list) => list[Math.min(list.length - 1, Math.floor(random() * list.length))]!,
    int: (min, max) => min + Math.floor(random() * (max - min + 1)),
    next: random,
  };
}
