/**
 * Vectors are stored as Base64 of their float32 values (little-endian): a 1536-dimension
 * embedding takes 8 KB instead of about 30 KB as a JSON array, and float32 keeps far more
 * precision than a cosine ranking needs.
 */

/** `vector` as Base64 of little-endian float32 values. */
export function encodeVector(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [index, value] of vector.entries()) bytes.writeFloatLE(value, index * 4);
  return bytes.toString("base64");
}

/**
 * The vector {@link encodeVector} wrote, or undefined when `encoded` is not one of
 * `dimensions` values (a damaged or foreign entry).
 */
export function decodeVector(encoded: string, dimensions: number): Float32Array | undefined {
  const bytes = Buffer.from(encoded, "base64");
  if (dimensions <= 0 || bytes.length !== dimensions * 4) return undefined;
  const vector = new Float32Array(dimensions);
  for (let index = 0; index < dimensions; index++) vector[index] = bytes.readFloatLE(index * 4);
  return vector;
}
