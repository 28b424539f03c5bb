/**
 * The cosine similarity of two vectors of the same length, from -1 to 1; 0 when either
 * is all zeros. Hosts usually answer normalized embeddings, but not every model does, so
 * the norms are not assumed to be 1.
 */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) {
    throw new RangeError(`cosineSimilarity: vectors of ${a.length} and ${b.length} dimensions`);
  }
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index++) {
    const x = a[index]!;
    const y = b[index]!;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  if (normA === 0 || normB === 0) return 0;
  return dot / Math.sqrt(normA * normB);
}
