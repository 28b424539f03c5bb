/**
 * A Standard Schema value (zod 4, valibot, …) as the one schema value: its Standard JSON
 * Schema (draft 2020-12) read into the closed subset. Core reads the `~standard` protocol
 * alone and depends on no schema library.
 */
import type { ObjectTypeSchema } from "../schema.js";
import { schemaFromJsonSchema } from "./from-json-schema.js";
import { SchemaConversionError } from "./schema-conversion-error.js";
import { isStandardSchema, type StandardJSONSchemaV1, type StandardSchemaV1 } from "./standard-schema.js";

/** How {@link schemaOfStandard} reads a schema. */
export interface StandardSchemaReading {
  /**
   * Which side of the schema: `"input"` (what it accepts: a tool's arguments) or
   * `"output"` (what it answers after its transforms). Default `"input"`.
   */
  readonly io?: "input" | "output";
  /** Passed to the library's JSON Schema converter as is (valibot: `{ ignoreActions: ["check"] }`). */
  readonly libraryOptions?: Record<string, unknown>;
}

const TARGET = "draft-2020-12";
const cache = new WeakMap<object, Map<string, ObjectTypeSchema>>();

/**
 * The schema value of a Standard Schema whose values are objects. Throws a
 * {@link SchemaConversionError} for a value without Standard JSON Schema, one its library
 * cannot convert, or one whose JSON Schema uses what the subset cannot carry.
 *
 * ```ts
 * const input = schemaOfStandard(z.object({ city: z.string().min(1) }));
 * // { type: "object", properties: { city: { type: "string", minLength: 1 } }, required: ["city"], additionalProperties: false }
 * ```
 */
export function schemaOfStandard(
  schema: StandardSchemaV1,
  reading: StandardSchemaReading = {},
): ObjectTypeSchema {
  if (!isStandardSchema(schema)) {
    throw new SchemaConversionError(
      "NOT_A_STANDARD_SCHEMA",
      `the value is not a Standard Schema: ${schema === undefined ? "it is undefined" : "it has no ~standard property with validate"}`,
      "pass a zod 4 schema, a valibot one wrapped with toStandardJsonSchema, or another library's that implements " +
        "Standard Schema (a schema still undefined is used before its definition ran, as in an import cycle)",
    );
  }
  const io = reading.io ?? "input";
  const key = `${io} ${JSON.stringify(reading.libraryOptions ?? null)}`;
  let read = cache.get(schema);
  const known = read?.get(key);
  if (known !== undefined) return known;
  const converted = schemaFromJsonSchema(jsonSchemaOf(schema, io, reading.libraryOptions));
  if (read === undefined) {
    read = new Map();
    cache.set(schema, read);
  }
  read.set(key, converted);
  return converted;
}

function jsonSchemaOf(
  schema: StandardSchemaV1,
  io: "input" | "output",
  libraryOptions: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const props = schema["~standard"] as Partial<StandardJSONSchemaV1.Props>;
  const vendor = schema["~standard"].vendor;
  const convert = props.jsonSchema?.[io];
  if (typeof convert !== "function") {
    throw new SchemaConversionError(
      "NO_JSON_SCHEMA",
      `the ${vendor} schema implements Standard Schema but not Standard JSON Schema, so its shape cannot be read`,
      vendor === "valibot"
        ? "wrap it with toStandardJsonSchema(schema) from @valibot/to-json-schema"
        : `use a version of ${vendor} that implements Standard JSON Schema (zod 4.2 or later does), or its adapter`,
    );
  }
  let json: unknown;
  try {
    json = convert({ target: TARGET, ...(libraryOptions !== undefined && { libraryOptions }) });
  } catch (error) {
    throw new SchemaConversionError(
      "CONVERSION_FAILED",
      `${vendor} cannot write the schema's ${io} as JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
      "give every field a type JSON can carry (a date as an ISO string: z.iso.datetime(), v.pipe(v.string(), v.isoTimestamp())); " +
        'keep refinements and transforms out of the shape (valibot: libraryOptions { ignoreActions: ["check"] })',
      { cause: error },
    );
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new SchemaConversionError(
      "CONVERSION_FAILED",
      `${vendor}'s JSON Schema converter answered ${json === null ? "null" : typeof json}, not a schema object`,
      `report it to ${vendor}; meanwhile describe the arguments with a class`,
    );
  }
  return json as Record<string, unknown>;
}
