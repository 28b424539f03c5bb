/** Weight of a whole word against one of its character trigrams. */
const WORD_WEIGHT = 1;
const TRIGRAM_WEIGHT = 0.5;

/** FNV-1a, 32 bit. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The features of a text: its lowercased words, and the character trigrams of each word. */
function textFeatures(text: string): Array<{ feature: string; weight: number }> {
  const lower = text.toLowerCase();
  const words = lower.match(/[\p{L}\p{N}]+/gu) ?? [lower.trim()];
  const features: Array<{ feature: string; weight: number }> = [];
  for (const word of words) {
    if (word === "") continue;
    features.push({ feature: `w:${word}`, weight: WORD_WEIGHT });
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      features.push({ feature: `t:${padded.slice(i, i + 3)}`, weight: TRIGRAM_WEIGHT });
    }
  }
  return features;
}

/**
 * A deterministic embedding by feature hashing: each feature adds its weight, with a
 * hash-chosen sign, to a hash-chosen dimension; the vector is then L2-normalized. Texts
 * that share words and word pieces share dimensions, so their cosine is higher.
 */
export function featureHashEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const { feature, weight } of textFeatures(text)) {
    const hash = fnv1a(feature);
    const sign = fnv1a(`s:${feature}`) & 1 ? 1 : -1;
    vector[hash % dimensions]! += sign * weight;
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}
