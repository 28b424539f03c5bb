import { createHash } from "node:crypto";
import { encodePng } from "./png.js";

/**
 * A deterministic picture for a prompt: two colours and a stripe angle drawn from the
 * SHA-256 of `seed`, as a diagonal-stripe PNG of the given size. The same seed always
 * yields the same bytes; different prompts yield visibly different images.
 */
export function promptImage(seed: string, width: number, height: number): Buffer {
  const digest = createHash("sha256").update(seed).digest();
  const a = [digest[0]!, digest[1]!, digest[2]!] as const;
  const b = [digest[3]!, digest[4]!, digest[5]!] as const;
  const stripe = 8 + (digest[6]! % 24);
  const slope = 1 + (digest[7]! % 3);
  return encodePng(width, height, (x, y) => (Math.floor((x + slope * y) / stripe) % 2 === 0 ? a : b));
}
