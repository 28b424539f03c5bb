/**
 * The codec table: the values a tool method receives as objects and that travel as strings,
 * one module each for the built-in ones (`Date`, `URL`), and those an author registers. A
 * built-in codec: a module beside these (see {@link Codec}), its entry in `BUILT_IN`, its
 * tests. The schema value names a codec by its `format`.
 */
import type { Codec, CodecDefinition } from "./codec.js";
import { dateTimeCodec } from "./date-time.js";
import { uriCodec } from "./uri.js";

const BUILT_IN: readonly Codec[] = [dateTimeCodec as Codec, uriCodec as Codec];

const table = new Map<string, Codec>(BUILT_IN.map((codec) => [codec.name, codec]));
const registered: Codec[] = [];

const CODEC_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * Adds a codec (as TypeGraphQL's `scalarsMap` adds scalars): a member, parameter or result
 * field of its TypeScript type is then sent as its string — in the manifest, MCP's schemas,
 * the checking of arguments (a string it cannot decode is refused with -32602 naming the
 * path) and results (its values are encoded). Register before the plugin class is built
 * (`serve`, `buildPlugin`), e.g. at the top of the module that declares the class.
 *
 * ```ts
 * registerCodec<bigint>({
 *   name: "bigint",
 *   typeName: "bigint",
 *   reflectedAs: BigInt,
 *   jsonSchema: { type: "string", pattern: "^-?[0-9]+$" },
 *   description: "integer in decimal digits, e.g. 12345678901234567890",
 *   decode: (text) => (/^-?[0-9]+$/.test(text.trim()) ? BigInt(text.trim()) : undefined),
 *   encode: (value) => value.toString(),
 *   is: (value): value is bigint => typeof value === "bigint",
 * });
 * ```
 *
 * Answers a function that removes the codec again.
 * @throws Error when the name is not a usable name, or the name or type is taken.
 */
export function registerCodec<T>(definition: CodecDefinition<T>): () => void {
  const { name, typeName, description } = definition;
  if (!CODEC_NAME.test(name))
    throw new Error(`registerCodec: "${name}" is not a codec name. Fix: use letters, digits, - and _`);
  const taken = table.get(name) ?? codecOfTypeName(typeName);
  if (taken)
    throw new Error(
      `registerCodec: "${name}" (${typeName}) clashes with the codec "${taken.name}" (${taken.typeName}). Fix: give each codec its own name and type`,
    );
  const codec: Codec = {
    ...(definition as CodecDefinition),
    jsonSchema: definition.jsonSchema ?? { type: "string", format: name },
    expected: `string (${description})`,
    noun: description,
  };
  table.set(name, codec);
  registered.push(codec);
  return () => {
    if (table.get(name) === codec) table.delete(name);
    registered.splice(registered.indexOf(codec), 1);
  };
}

/** The codec named `name` (a schema value's `format`), if any. */
export function codecNamed(name: string): Codec | undefined {
  return table.get(name);
}

/** The codec of the TypeScript type named `typeName` (`Date` → `date-time`), if any. */
export function codecOfTypeName(typeName: string): Codec | undefined {
  for (const codec of table.values()) if (codec.typeName === typeName) return codec;
  return undefined;
}

/** The codec whose reflected constructor `value` is (`Date` → `date-time`), if any. */
export function codecOfConstructor(value: unknown): Codec | undefined {
  if (typeof value !== "function") return undefined;
  for (const codec of table.values()) if (codec.reflectedAs === value) return codec;
  return undefined;
}

/** The format of a built-in codec's class, by the class's name, for the build-time source reader (`Date` → `date-time`). */
export function formatOfClassName(className: string): ValueFormat | undefined {
  return BUILT_IN.find((codec) => codec.typeName === className)?.name;
}

/** The format whose reflected constructor `value` is (`Date` → `date-time`), if any. */
export function formatOfConstructor(value: unknown): ValueFormat | undefined {
  return codecOfConstructor(value)?.name;
}

/** The registered (not built-in) codecs, newest last: results are encoded with them. */
export function registeredCodecs(): readonly Codec[] {
  return registered;
}

/** The built-in codecs' class names, as messages list what a value may be: `Date or URL`. */
export function builtInClassNames(): readonly string[] {
  return BUILT_IN.map((codec) => codec.typeName);
}

/** A schema value's `format` that names a codec: `date-time`, `uri`, or a registered one. */
export type ValueFormat = string;

export type { Codec, CodecDefinition } from "./codec.js";
