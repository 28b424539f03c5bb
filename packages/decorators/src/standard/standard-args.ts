/**
 * `@Args(schema)`: a tool's arguments described by a Standard Schema (zod 4, valibot)
 * instead of a DTO class. The schema becomes the tool's input schema value (so the
 * manifest, MCP `inputSchema` and everything else derive from it as for a class); each
 * invoke is checked and coerced against that value as a class tool's is (`"3"` → 3, a JSON
 * string for an object, `null` as absent; a formatted string stays a string, as the library
 * expects), then by the library's own `validate`, which holds the refinements and transforms
 * JSON Schema cannot show, and the method receives the library's output value.
 */
import {
  type ObjectTypeSchema,
  type ParamIssue,
  SchemaConversionError,
  type StandardSchemaV1,
  schemaOfStandard,
} from "@executa/core";
import { standardIssues } from "@executa/core/internal";
import { objectCheckerOf } from "../binding/coerce.js";
import { invalidArguments, isUnknownArgument } from "../binding/invalid-arguments.js";
import { DefinitionError } from "../errors/definition-error.js";

/** What `@Args(schema)` records. */
export interface StandardArgs {
  readonly schema: StandardSchemaV1;
  /** Passed to the library's JSON Schema converter (valibot: `{ ignoreActions: ["check"] }`). */
  readonly libraryOptions?: Record<string, unknown>;
}

/** Where the parameter is, for messages. */
export interface StandardArgsSite {
  readonly className: string;
  readonly where: string;
}

/**
 * The tool's input schema value read from the Standard Schema of an `@Args(schema)`
 * parameter; a schema the subset cannot carry is a `SCHEMA_UNSUPPORTED` definition error.
 */
export function standardArgsInput(args: StandardArgs, site: StandardArgsSite): ObjectTypeSchema {
  try {
    return schemaOfStandard(args.schema, {
      io: "input",
      ...(args.libraryOptions !== undefined && { libraryOptions: args.libraryOptions }),
    });
  } catch (error) {
    if (!(error instanceof SchemaConversionError)) throw error;
    throw new DefinitionError(
      "SCHEMA_UNSUPPORTED",
      site.className,
      `${site.where} @Args(schema)`,
      `${error.problem} (${error.code})`,
      error.fix,
    );
  }
}

/** Tolerant coercion as for class tools, formatted strings kept as the library expects them. */
const COERCE_FOR_LIBRARY = { coerce: true, decodeFormats: false } as const;

/**
 * One invoke's arguments checked and coerced against the tool's `input`, then validated by
 * the library: the library's output value, or -32602 with the issues (dotted paths, as
 * class-validator's). Where the input refuses a value the library refuses too, the
 * library's wording is reported (`Invalid email address`, not the pattern it is written
 * as); an unknown argument is reported as for every tool. Synchronous when the library
 * validates synchronously.
 */
export function standardArguments(
  tool: { readonly name: string; readonly input: ObjectTypeSchema },
  schema: StandardSchemaV1,
  args: Record<string, unknown>,
): unknown {
  const names = Object.keys(tool.input.properties ?? {});
  const checked = objectCheckerOf(tool.input)(args, COERCE_FOR_LIBRARY);
  const ours = checked.ok ? undefined : checked.issues;
  const unknown = ours?.filter(isUnknownArgument) ?? [];
  if (unknown.length > 0) throw invalidArguments(tool.name, names, unknown);
  const result = schema["~standard"].validate(checked.ok ? withExtraKeys(args, checked.value, names) : args);
  const read = (done: StandardSchemaV1.Result<unknown>) => outputOf(tool.name, names, done, ours);
  return result instanceof Promise ? result.then(read) : read(result);
}

function outputOf(
  tool: string,
  names: readonly string[],
  result: StandardSchemaV1.Result<unknown>,
  ours: readonly ParamIssue[] | undefined,
): unknown {
  if (result.issues !== undefined) throw invalidArguments(tool, names, standardIssues(result.issues));
  if (ours !== undefined) throw invalidArguments(tool, names, ours);
  return result.value;
}

/**
 * The coerced known fields, with the keys the input does not name kept as sent: the
 * library decides about those (a loose object keeps them, a stripping one drops them).
 */
function withExtraKeys(
  args: Record<string, unknown>,
  coerced: Record<string, unknown>,
  names: readonly string[],
): Record<string, unknown> {
  const known = new Set(names);
  const extra = Object.entries(args).filter(([key]) => !known.has(key));
  return extra.length === 0 ? coerced : { ...Object.fromEntries(extra), ...coerced };
}
