/**
 * A JSON Schema 2020-12 document (as a Standard JSON Schema library writes it) read into
 * the one schema value. The subset is closed: each keyword is carried as it is, or said in
 * the subset's own terms (`type: ["number", "null"]` as `anyOf`, `$ref: "#"` as a `$defs`
 * entry, `additionalProperties: true` and `uniqueItems: false` as their absence), or refused with a
 * {@link SchemaConversionError}; none is dropped in silence.
 */
import type { ObjectTypeSchema, Schema } from "../schema.js";
import { SchemaConversionError } from "./schema-conversion-error.js";

type Json = Record<string, unknown>;
type JsonType = "string" | "number" | "integer" | "boolean" | "null" | "array" | "object";

const ANNOTATIONS = ["description", "title", "default"] as const;

/** The keywords each type carries beyond the annotations. */
const TYPE_KEYWORDS: Readonly<Record<JsonType, readonly string[]>> = {
  string: ["enum", "const", "minLength", "maxLength", "pattern", "format"],
  number: ["enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
  integer: ["enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
  boolean: ["enum", "const"],
  null: ["enum", "const"],
  array: ["items", "minItems", "maxItems", "uniqueItems"],
  object: ["properties", "required", "additionalProperties", "propertyNames"],
};

const ROOT_NAME = "Root";
const DIALECT = "https://json-schema.org/draft/2020-12/schema";
const REFINE_FIX =
  "leave it out of the schema's shape and check it in a refinement (zod: .refine(); valibot: v.check() " +
  'with libraryOptions { ignoreActions: ["check"] }): the library\'s validate still enforces it';

/** Reads `document` (the JSON Schema of an object) into an object schema value. */
export function schemaFromJsonSchema(document: Json): ObjectTypeSchema {
  const { $schema, $defs, ...root } = document;
  if ($schema !== undefined && $schema !== DIALECT)
    throw unsupported("$schema", "", `it names ${JSON.stringify($schema)}, not draft 2020-12 (${DIALECT})`);
  const reader = new Reader(readDefsNames($defs));
  const schema = reader.node(root, "");
  if (!("type" in schema) || schema.type !== "object") {
    throw new SchemaConversionError(
      "NOT_AN_OBJECT",
      `the schema describes ${describeKind(schema)}, not an object`,
      "make the schema an object of named fields (zod: z.object({ … }); valibot: v.object({ … }))",
    );
  }
  const defs: Record<string, Schema> = {};
  for (const [name, def] of Object.entries(($defs ?? {}) as Json))
    defs[name] = reader.node(def, `/$defs/${name}`);
  if (reader.rootReferenced) defs[reader.rootName] = schema;
  return Object.keys(defs).length === 0 ? schema : { ...schema, $defs: defs };
}

function readDefsNames(defs: unknown): ReadonlySet<string> {
  if (defs === undefined) return new Set();
  if (!isRecord(defs)) throw unsupported("$defs", "", "it is not an object of schemas");
  return new Set(Object.keys(defs));
}

class Reader {
  /** Whether a `$ref: "#"` (the root itself, a recursive schema) was met. */
  rootReferenced = false;
  readonly rootName: string;

  constructor(private readonly defNames: ReadonlySet<string>) {
    let name = ROOT_NAME;
    for (let n = 2; defNames.has(name); n++) name = `${ROOT_NAME}${n}`;
    this.rootName = name;
  }

  node(json: unknown, at: string): Schema {
    if (json === true) return {};
    if (!isRecord(json)) {
      const what =
        json === false ? "the schema false (no value fits)" : `a schema that is ${JSON.stringify(json)}`;
      throw new SchemaConversionError(
        "UNSUPPORTED_KEYWORD",
        `${what} at ${pointer(at)} is outside the supported subset`,
        "give every field a type",
      );
    }
    const annotations = annotationsOf(json, at);
    if ("$ref" in json) return { ...this.ref(json, at), ...annotations };
    if ("anyOf" in json) return { anyOf: this.union(json, "anyOf", at), ...annotations };
    if ("oneOf" in json) return { anyOf: this.oneOf(json, at), ...annotations };
    const types = typesOf(json, at);
    if (types.length === 0) {
      checkKeys(json, at, []);
      return annotations;
    }
    if (types.length === 1) return { ...this.typed(json, types[0]!, at), ...annotations };
    checkKeys(json, at, ["type", ...types.flatMap((type) => TYPE_KEYWORDS[type])]);
    const options = types.flatMap((type) => this.typedPart(json, type, at));
    return { anyOf: options, ...annotations };
  }

  private ref(json: Json, at: string): Schema {
    checkKeys(json, at, ["$ref"]);
    const ref = json.$ref;
    if (ref === "#") {
      this.rootReferenced = true;
      return { $ref: `#/$defs/${this.rootName}` };
    }
    const name =
      typeof ref === "string" && ref.startsWith("#/$defs/") ? ref.slice("#/$defs/".length) : undefined;
    if (name !== undefined && !name.includes("/") && this.defNames.has(name))
      return { $ref: `#/$defs/${name}` };
    throw new SchemaConversionError(
      "UNSUPPORTED_REF",
      `the $ref ${JSON.stringify(ref)} at ${pointer(at)} points outside the schema's own $defs`,
      "define every schema inside the value itself (a recursive zod schema refers to itself through a getter; " +
        "a named one lands in $defs)",
    );
  }

  private union(json: Json, keyword: "anyOf" | "oneOf", at: string): Schema[] {
    checkKeys(json, at, [keyword]);
    const options = json[keyword];
    if (!Array.isArray(options) || options.length === 0)
      throw unsupported(keyword, at, "it is not a list of schemas");
    return options.map((option, index) => this.node(option, `${at}/${keyword}/${index}`));
  }

  /**
   * `oneOf` (a zod discriminated union, `z.xor`) is `anyOf` when no value can fit two of
   * its options: each of a different JSON type, or objects told apart by a `const` tag.
   */
  private oneOf(json: Json, at: string): Schema[] {
    const options = this.union(json, "oneOf", at);
    if (distinctTypes(options) || taggedObjects(options)) return options;
    throw new SchemaConversionError(
      "UNSUPPORTED_KEYWORD",
      `the JSON Schema keyword "oneOf" at ${pointer(at)} has options a value could fit more than one of ("exactly one" is outside the supported subset)`,
      "make the options disjoint (different types, or objects with a literal tag field: z.discriminatedUnion), or use a plain union (anyOf)",
    );
  }

  /** A node of one type, every keyword belonging to it. */
  private typed(json: Json, type: JsonType, at: string): Schema {
    checkKeys(json, at, ["type", ...TYPE_KEYWORDS[type]]);
    const [schema] = this.typedPart(json, type, at);
    if (schema === undefined)
      throw unsupported(json.enum !== undefined ? "enum" : "const", at, `no value is a ${type}`);
    return schema;
  }

  /** The part of `json` that applies to `type`: none when its `enum` or `const` has no value of that type. */
  private typedPart(json: Json, type: JsonType, at: string): Schema[] {
    const values = valuesOf(json, type, at);
    if (values === null) return [];
    switch (type) {
      case "null":
        return [{ type: "null" }];
      case "boolean":
        return [{ type, ...(values as Json) }];
      case "string":
        return [{ type, ...(values as Json), ...stringFacets(json, at) }];
      case "number":
      case "integer":
        return [{ type, ...(values as Json), ...numberFacets(json, at) }];
      case "array":
        return [this.array(json, at)];
      case "object":
        return [this.object(json, at)];
    }
  }

  private array(json: Json, at: string): Schema {
    const items = json.items === undefined ? undefined : this.node(json.items, `${at}/items`);
    return {
      type: "array",
      ...(items !== undefined && { items }),
      ...count(json, "minItems", at),
      ...count(json, "maxItems", at),
      ...uniqueness(json, at),
    };
  }

  private object(json: Json, at: string): ObjectTypeSchema {
    const properties: Record<string, Schema> = {};
    if (json.properties !== undefined) {
      if (!isRecord(json.properties)) throw unsupported("properties", at, "it is not an object of schemas");
      for (const [name, field] of Object.entries(json.properties))
        properties[name] = this.node(field, `${at}/properties/${escapePointer(name)}`);
    }
    const required = json.required;
    if (
      required !== undefined &&
      !(Array.isArray(required) && required.every((name) => typeof name === "string"))
    )
      throw unsupported("required", at, "it is not a list of names");
    checkPropertyNames(json.propertyNames, at);
    const extra = json.additionalProperties;
    const additional =
      extra === undefined || extra === true
        ? undefined
        : extra === false
          ? false
          : this.node(extra, `${at}/additionalProperties`);
    return {
      type: "object",
      ...(json.properties !== undefined && { properties }),
      ...(required !== undefined && required.length > 0 && { required: [...(required as string[])] }),
      ...(additional !== undefined && { additionalProperties: additional }),
    };
  }
}

function distinctTypes(options: readonly Schema[]): boolean {
  const kinds = options.map((option) =>
    "type" in option && option.type !== undefined
      ? option.type === "integer"
        ? "number"
        : option.type
      : undefined,
  );
  return kinds.every((kind) => kind !== undefined) && new Set(kinds).size === kinds.length;
}

function taggedObjects(options: readonly Schema[]): boolean {
  const objects = options.filter(
    (option): option is ObjectTypeSchema => "type" in option && option.type === "object",
  );
  if (objects.length !== options.length) return false;
  return (objects[0]!.required ?? []).some((key) => {
    const tags = objects.map((option) =>
      option.required?.includes(key)
        ? (option.properties?.[key] as { const?: unknown } | undefined)?.const
        : undefined,
    );
    return tags.every((tag) => tag !== undefined) && new Set(tags).size === tags.length;
  });
}

function typesOf(json: Json, at: string): JsonType[] {
  const type = json.type;
  if (type === undefined) return inferredTypes(json);
  const types = Array.isArray(type) ? type : [type];
  for (const entry of types) {
    if (typeof entry !== "string" || !(entry in TYPE_KEYWORDS))
      throw unsupported("type", at, `${JSON.stringify(entry)} is not a JSON type`);
  }
  return [...new Set(types as JsonType[])];
}

/** The types an untyped `enum` or `const` implies (`enum: ["a", 1]`: string and number). */
function inferredTypes(json: Json): JsonType[] {
  const values = json.enum !== undefined ? json.enum : "const" in json ? [json.const] : undefined;
  if (!Array.isArray(values)) return [];
  const kinds = values.map((value): JsonType | undefined => {
    if (value === null) return "null";
    if (typeof value === "string" || typeof value === "boolean") return typeof value as JsonType;
    if (typeof value === "number") return "number";
    return undefined;
  });
  return kinds.every((kind) => kind !== undefined) ? [...new Set(kinds as JsonType[])] : [];
}

/** `{ enum }` / `{ const }` restricted to `type`'s values; null when they leave none; `{}` when there are none. */
function valuesOf(json: Json, type: JsonType, at: string): Json | null {
  if (json.enum !== undefined) {
    const own = enumValues(json.enum, at).filter((value) => fitsType(value, type));
    if (own.length === 0) return null;
    return type === "null" ? {} : { enum: own };
  }
  if ("const" in json) {
    if (!isJsonPrimitive(json.const))
      throw unsupported("const", at, "its value is not a string, number, boolean or null");
    if (!fitsType(json.const, type)) return null;
    return type === "null" ? {} : { const: json.const };
  }
  return {};
}

function enumValues(values: unknown, at: string): readonly unknown[] {
  if (!Array.isArray(values)) throw unsupported("enum", at, "it is not a list");
  const odd = values.find((value) => !isJsonPrimitive(value));
  if (odd !== undefined)
    throw unsupported(
      "enum",
      at,
      `its value ${JSON.stringify(odd)} is not a string, number, boolean or null`,
    );
  return values;
}

function stringFacets(json: Json, at: string): Json {
  const out: Json = { ...count(json, "minLength", at), ...count(json, "maxLength", at) };
  if (json.pattern !== undefined) {
    if (typeof json.pattern !== "string") throw unsupported("pattern", at, "it is not a string");
    try {
      new RegExp(json.pattern, "u");
    } catch (error) {
      throw unsupported(
        "pattern",
        at,
        `it is not an ECMAScript regular expression (${(error as Error).message})`,
      );
    }
    out.pattern = json.pattern;
  }
  if (json.format !== undefined) {
    if (typeof json.format !== "string") throw unsupported("format", at, "it is not a string");
    out.format = json.format;
  }
  return out;
}

function numberFacets(json: Json, at: string): Json {
  const out: Json = {};
  for (const key of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] as const) {
    const value = json[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value))
      throw unsupported(key, at, "it is not a finite number");
    out[key] = value;
  }
  return out;
}

/** `propertyNames: { type: "string" }` (zod's records) says what JSON already holds; any other rule on keys is refused. */
function checkPropertyNames(names: unknown, at: string): void {
  if (names === undefined) return;
  if (isRecord(names) && Object.keys(names).length === 1 && names.type === "string") return;
  throw unsupported("propertyNames", at, "a rule on an object's keys is outside the supported subset");
}

function count(json: Json, key: string, at: string): Json {
  const value = json[key];
  if (value === undefined) return {};
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
    throw unsupported(key, at, "it is not a whole number ≥ 0");
  return { [key]: value };
}

/** `uniqueItems: true` as it is; `false` is the absence of the rule. */
function uniqueness(json: Json, at: string): Json {
  const value = json.uniqueItems;
  if (value === undefined || value === false) return {};
  if (value !== true) throw unsupported("uniqueItems", at, "it is not a boolean");
  return { uniqueItems: true };
}

function annotationsOf(json: Json, at: string): Json {
  const out: Json = {};
  for (const key of ANNOTATIONS) {
    if (!(key in json)) continue;
    const value = json[key];
    if (key !== "default" && typeof value !== "string") throw unsupported(key, at, "it is not a string");
    out[key] = value;
  }
  return out;
}

/** Refuses any keyword of `json` that is neither an annotation nor one of `allowed`. */
function checkKeys(json: Json, at: string, allowed: readonly string[]): void {
  for (const key of Object.keys(json)) {
    if ((ANNOTATIONS as readonly string[]).includes(key) || allowed.includes(key)) continue;
    const known = Object.entries(TYPE_KEYWORDS).find(([, keys]) => keys.includes(key));
    throw new SchemaConversionError(
      "UNSUPPORTED_KEYWORD",
      known
        ? `the JSON Schema keyword ${JSON.stringify(key)} at ${pointer(at)} applies to ${known[0]} values, but the schema there is not one`
        : `the JSON Schema keyword ${JSON.stringify(key)} at ${pointer(at)} is outside the supported subset`,
      REFINE_FIX,
    );
  }
}

function unsupported(key: string, at: string, why: string): SchemaConversionError {
  return new SchemaConversionError(
    "UNSUPPORTED_KEYWORD",
    `the JSON Schema keyword ${JSON.stringify(key)} at ${pointer(at)} cannot be carried: ${why}`,
    REFINE_FIX,
  );
}

function fitsType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "integer":
      return Number.isInteger(value);
    case "number":
    case "string":
    case "boolean":
      return typeof value === type;
    default:
      return false;
  }
}

function isJsonPrimitive(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeKind(schema: Schema): string {
  if ("$ref" in schema) return "a reference";
  if ("anyOf" in schema) return "a union";
  return schema.type === undefined ? "any value" : `a ${schema.type}`;
}

function pointer(at: string): string {
  return at === "" ? "the root" : at;
}

function escapePointer(name: string): string {
  return name.replaceAll("~", "~0").replaceAll("/", "~1");
}
