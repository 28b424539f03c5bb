import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/**
 * Whether an answer matches its structured-output schema, as a real host says it: every
 * keyword of JSON Schema 2020-12 (draft-07 when the schema names it), with formats.
 */

/** One way a value breaks its schema; `path` like `keywords.2` (empty for the root). */
export interface SchemaIssue {
  path: string;
  message: string;
}

type Schema = Record<string, unknown>;

const DRAFT_07 = /draft-0[67]\/schema/;

let engines: { draft07: Ajv; draft2020: Ajv2020 } | undefined;
/** Compiled once per schema object: a host checks many answers against one format. */
const compiled = new WeakMap<Schema, ValidateFunction | SchemaIssue>();

/** Every way `value` breaks `schema` (empty when it matches). */
export function schemaIssues(value: unknown, schema: Schema): SchemaIssue[] {
  const validate = validatorFor(schema);
  if (typeof validate !== "function") return [validate];
  if (validate(value)) return [];
  return (validate.errors ?? []).map(issueOf);
}

function validatorFor(schema: Schema): ValidateFunction | SchemaIssue {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

function compile(schema: Schema): ValidateFunction | SchemaIssue {
  engines ??= { draft07: withFormats(new Ajv(OPTIONS)), draft2020: withFormats(new Ajv2020(OPTIONS)) };
  const { $schema, ...rest } = schema;
  const engine = typeof $schema === "string" && DRAFT_07.test($schema) ? engines.draft07 : engines.draft2020;
  try {
    // Without `$schema`: a meta-schema URI the engine does not hold must not fail the check.
    return engine.compile(rest);
  } catch (error) {
    return { path: "", message: `the schema itself is invalid: ${(error as Error).message}` };
  }
}

/** Authors' schemas carry keywords of their own (e.g. `title` variants): not strict. */
const OPTIONS = { allErrors: true, strict: false } as const;

function withFormats<T extends Ajv>(engine: T): T {
  addFormats(engine);
  return engine;
}

/** An ajv error as a path into the value and a message; a missing or extra property is named in the path. */
function issueOf(error: ErrorObject): SchemaIssue {
  const at = error.instancePath.split("/").slice(1).map(pointerKey);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required")
    return { path: [...at, String(params.missingProperty)].join("."), message: "required" };
  if (error.keyword === "additionalProperties")
    return { path: [...at, String(params.additionalProperty)].join("."), message: "is not allowed" };
  if (error.keyword === "enum")
    return {
      path: at.join("."),
      message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
    };
  return { path: at.join("."), message: error.message ?? error.keyword };
}

/** A JSON Pointer segment as the key it names. */
function pointerKey(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}
