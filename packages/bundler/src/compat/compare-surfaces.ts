import { diffManifests } from "../verify/diff-manifests.js";
import { compareInputSchema, compareOutputSchema } from "./compare-schema.js";
import { asObject, byName, ChangeList, code, type JsonObject, type SurfaceChange } from "./surface-change.js";

/** Tool fields compared rule by rule; every other field's change is compatible. */
const TOOL_FIELDS = new Set([
  "name",
  "description",
  "parameters",
  "input_schema",
  "output_schema",
  "outputSchema",
]);
/** Parameter fields compared rule by rule (the schema ones); others are compatible. */
const SCHEMA_FIELDS = new Set([
  "name",
  "type",
  "required",
  "enum",
  "items",
  "items_type",
  "properties",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
]);

/**
 * Every change between two tool surfaces (manifests, or any object with `tools` and
 * `credentials` as a manifest carries them), classified for the callers of the old one:
 *
 * - breaking: a tool removed or renamed; a parameter removed, renamed, newly required,
 *   added as required, of another type, with enum values removed, a bound tightened, a
 *   pattern added or changed or `uniqueItems` added; a credential newly required; an output
 *   field removed;
 * - compatible: tools, optional parameters, enum values and credentials added, bounds
 *   widened, `uniqueItems` removed, descriptions and other fields changed.
 *
 * A rename cannot be told from a removal and an addition; when exactly one tool (or one
 * parameter of a tool) is removed and one added with the same shape, the removal says
 * "renamed to …?".
 */
export function compareSurfaces(before: unknown, after: unknown): SurfaceChange[] {
  const out = new ChangeList();
  const old = asObject(before);
  const next = asObject(after);
  compareNamed("tools", "tool", byName(old.tools), byName(next.tools), out, {
    added: () => false,
    common: (path, a, b) => compareTool(path, a, b, out),
  });
  compareCredentials(byName(old.credentials), byName(next.credentials), out);
  return out.changes;
}

interface NamedRules {
  /** Whether adding this entry breaks callers. */
  added: (entry: JsonObject) => boolean;
  /** Compares an entry present on both sides. */
  common: (path: string, before: JsonObject, after: JsonObject) => void;
}

function compareNamed(
  path: string,
  noun: string,
  before: Map<string, JsonObject>,
  after: Map<string, JsonObject>,
  out: ChangeList,
  rules: NamedRules,
): void {
  const removed = [...before.keys()].filter((name) => !after.has(name));
  const added = [...after.keys()].filter((name) => !before.has(name));
  const [gone, come] = [removed[0] ?? "", added[0] ?? ""];
  const single = removed.length === 1 && added.length === 1;
  const renamed = single && sameShape(before.get(gone), after.get(come)) ? come : undefined;
  for (const name of removed) {
    const guess = renamed ? ` (renamed to ${code(renamed)}?)` : "";
    out.breaking(`${path}[${name}]`, `${noun} ${code(name)} removed${guess}`);
  }
  for (const name of added) {
    const entry = after.get(name) as JsonObject;
    const breaks = rules.added(entry);
    const how = breaks ? " as required" : "";
    out.add(breaks, `${path}[${name}]`, `${noun} ${code(name)} added${how}`);
  }
  for (const [name, entry] of before) {
    const other = after.get(name);
    if (other) rules.common(`${path}[${name}]`, entry, other);
  }
}

/** Same entry but for its name and descriptions. */
function sameShape(a: JsonObject | undefined, b: JsonObject | undefined): boolean {
  const shape = (entry: JsonObject | undefined): unknown => {
    if (Array.isArray(entry)) return entry.map((item) => shape(item as JsonObject));
    if (typeof entry !== "object" || entry === null) return entry;
    const kept = Object.entries(entry).filter(
      ([key]) => key !== "name" && !/description|display_name/.test(key),
    );
    return Object.fromEntries(kept.map(([key, value]) => [key, shape(value as JsonObject)]));
  };
  return diffManifests(shape(a), shape(b)).length === 0;
}

function compareTool(path: string, before: JsonObject, after: JsonObject, out: ChangeList): void {
  if (before.description !== after.description) out.compatible(`${path}.description`, "description changed");
  const lossless = losslessInputs(before, after);
  compareNamed(`${path}.parameters`, "parameter", byName(before.parameters), byName(after.parameters), out, {
    added: (parameter) => isRequired(parameter) && parameter.default === undefined,
    common: (at, a, b) => compareParameter(at, a, b, out, lossless?.(String(a.name))),
  });
  const output = (tool: JsonObject) => tool.output_schema ?? tool.outputSchema;
  if (output(before) !== undefined) {
    const gone = output(after) === undefined;
    if (gone) out.breaking(`${path}.output_schema`, "output schema removed");
    else compareOutputSchema(`${path}.output_schema`, asObject(output(before)), asObject(output(after)), out);
  } else if (output(after) !== undefined) {
    out.compatible(`${path}.output_schema`, "output schema added");
  }
  compareRest(path, before, after, TOOL_FIELDS, out);
}

/** `required` defaults to `true` on the wire. */
function isRequired(parameter: JsonObject): boolean {
  return parameter.required !== false;
}

/**
 * Each parameter's lossless schemas (its property of both tools' `input_schema`, which MCP
 * lists: nested `required` lists and bounds the manifest only says in text), when both
 * surfaces recorded them.
 */
function losslessInputs(
  before: JsonObject,
  after: JsonObject,
): ((name: string) => [JsonObject, JsonObject] | undefined) | undefined {
  if (before.input_schema === undefined || after.input_schema === undefined) return undefined;
  const old = asObject(asObject(before.input_schema).properties);
  const next = asObject(asObject(after.input_schema).properties);
  return (name) =>
    old[name] !== undefined && next[name] !== undefined
      ? [asObject(old[name]), asObject(next[name])]
      : undefined;
}

function compareParameter(
  path: string,
  before: JsonObject,
  after: JsonObject,
  out: ChangeList,
  lossless?: [JsonObject, JsonObject],
): void {
  const name = code(before.name);
  if (!isRequired(before) && isRequired(after))
    out.breaking(`${path}.required`, `parameter ${name} newly required`);
  if (isRequired(before) && !isRequired(after))
    out.compatible(`${path}.required`, `parameter ${name} now optional`);
  // The schema facts from the one schema value's lossless projection where both surfaces
  // carry it, else from the manifest's parameters.
  const [was, now] = lossless ?? [before, after];
  compareInputSchema(path, was, now, out);
  compareRest(path, before, after, SCHEMA_FIELDS, out);
}

/** Fields no rule names (descriptions, defaults, timeouts…): each change is compatible. */
function compareRest(
  path: string,
  before: JsonObject,
  after: JsonObject,
  ruled: Set<string>,
  out: ChangeList,
): void {
  const rest = (entry: JsonObject) =>
    Object.fromEntries(Object.entries(entry).filter(([key]) => !ruled.has(key)));
  for (const difference of diffManifests(rest(before), rest(after))) {
    const field = difference.path.split(/[.[]/)[0];
    out.compatible(`${path}.${difference.path}`, `${field} changed`);
  }
}

/** A credential the host must now supply breaks installs that do not; one dropped does not. */
function compareCredentials(
  before: Map<string, JsonObject>,
  after: Map<string, JsonObject>,
  out: ChangeList,
): void {
  const required = (credential: JsonObject | undefined) =>
    credential !== undefined && credential.required !== false;
  for (const [name, credential] of after) {
    const at = `credentials[${name}]`;
    const old = before.get(name);
    if (required(credential) && !required(old)) {
      out.breaking(
        at,
        old ? `credential ${code(name)} newly required` : `credential ${code(name)} added as required`,
      );
    } else if (!old) {
      out.compatible(at, `optional credential ${code(name)} added`);
    } else if (required(old) && !required(credential)) {
      out.compatible(`${at}.required`, `credential ${code(name)} now optional`);
    }
  }
  for (const name of before.keys()) {
    if (!after.has(name)) out.compatible(`credentials[${name}]`, `credential ${code(name)} no longer used`);
  }
}
