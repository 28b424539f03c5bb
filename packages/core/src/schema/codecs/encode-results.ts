import { registeredCodecs } from "./index.js";

/**
 * A result with every value of a registered codec replaced by its string (a `bigint` by
 * its digits), through arrays and plain objects; the value itself when nothing needed it.
 * Built-in codecs' classes need nothing: `Date` and `URL` send themselves by `toJSON`.
 * Costs nothing while no codec is registered.
 */
export function encodeResult(value: unknown): unknown {
  const codecs = registeredCodecs();
  return codecs.length === 0 ? value : encoded(value, codecs, 0);
}

// Results deeper than this are left as they are (the framing's own depth limit refuses them).
const MAX_DEPTH = 128;

function encoded(value: unknown, codecs: ReturnType<typeof registeredCodecs>, depth: number): unknown {
  for (const codec of codecs) if (codec.is(value)) return codec.encode(value);
  if (typeof value !== "object" || value === null || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    const next = value.map((item) => encoded(item, codecs, depth + 1));
    return next.some((item, index) => item !== value[index]) ? next : value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
    return value;
  const changed = Object.entries(value).flatMap(([key, item]) => {
    const next = encoded(item, codecs, depth + 1);
    return next === item ? [] : [[key, next] as const];
  });
  return changed.length === 0 ? value : { ...value, ...Object.fromEntries(changed) };
}
