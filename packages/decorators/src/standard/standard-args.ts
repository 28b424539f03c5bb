/**
 * `@Args(schema)`: a tool's arguments described by a Standard Schema (zod 4, valibot)
 * instead of a DTO class. The schema becomes the tool's input schema value (so the
 * manifest, MCP `inputSchema` and everything else derive from it as for a class); each
 * invoke is checked against that value, then by the library's own `validate`, which holds
 * the refinements and transforms JSON Schema cannot show, and the method receives the
 * library's output value.
 */
import {
  type ObjectTypeSchema,
  type ParamIssue,
  SchemaConversionError,
  type StandardSchemaV1,
  schemaOfStandard,
} from "@executa/core";
import { type ShapeIssue, shapeCheckOf, standardIssues } from "@executa/core/internal";
import { invalidArguments } from "../binding/invalid-arguments.js";
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

/**
 * One invoke's arguments checked against the tool's `input` and then by the library: the
 * library's output value, or -32602 with the issues (dotted paths, as class-validator's).
 * Where the input refuses a value the library refuses too, the library's wording is
 * reported (`Invalid email address`, not the pattern it is written as); an unknown
 * argument is reported as for every tool. Synchronous when the library validates
 * synchronously.
 */
export function standardArguments(
  tool: { readonly name: string; readonly input: ObjectTypeSchema },
  schema: StandardSchemaV1,
  args: Record<string, unknown>,
): unknown {
  const names = Object.keys(tool.input.properties ?? {});
  const shape = shapeCheckOf(tool.input)(args);
  const ours = shape === undefined ? undefined : paramIssue(shape, names);
  if (shape !== undefined && isUnknownArgument(shape))
    throw invalidArguments(tool.name, names, [paramIssue(shape, names)]);
  const result = schema["~standard"].validate(args);
  const read = (done: StandardSchemaV1.Result<unknown>) => outputOf(tool.name, names, done, ours);
  return result instanceof Promise ? result.then(read) : read(result);
}

function outputOf(
  tool: string,
  names: readonly string[],
  result: StandardSchemaV1.Result<unknown>,
  ours: ParamIssue | undefined,
): unknown {
  if (result.issues !== undefined) throw invalidArguments(tool, names, standardIssues(result.issues));
  if (ours !== undefined) throw invalidArguments(tool, names, [ours]);
  return result.value;
}

/** A key of the argument object the tool does not have. */
function isUnknownArgument(issue: ShapeIssue): boolean {
  return issue.problem === "is not a known field" && !/[.[]/.test(issue.path);
}

/** A shape issue as every -32602 reports one: a dotted path; an unknown argument named as such. */
function paramIssue(issue: ShapeIssue, names: readonly string[]): ParamIssue {
  const path = issue.path.replace(/\[(\d+)\]/g, ".$1");
  if (isUnknownArgument(issue))
    return { path, message: `unknown argument; expected: ${names.join(", ") || "none"}` };
  return { path, message: issue.problem };
}
