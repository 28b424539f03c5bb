/**
 * The name of `candidates` closest to `name`, for "did you mean" hints: compared without
 * case, `_` and `-` (so `hostCapabilities` finds `host_capabilities`), by edit distance,
 * and only when close enough to be a likely misspelling.
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const wanted = fold(name);
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, fold(candidate));
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  if (best === undefined) return undefined;
  return best.distance <= Math.max(2, Math.floor(wanted.length / 3)) ? best.candidate : undefined;
}

function fold(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, "");
}

/** Levenshtein distance (insertions, deletions, substitutions), one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
