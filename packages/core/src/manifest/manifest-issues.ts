/** One thing wrong with a manifest. */
export interface ManifestIssue {
  /** Where, e.g. `tools[1].parameters[0].required`. */
  path: string;
  message: string;
  /** `error`: the spec is broken (FAIL); `warning`: legal but likely to hurt (WARN). */
  severity: "error" | "warning";
}

/** A JSON object as the validators read it. */
export type JsonObject = Record<string, unknown>;

/** The issues found so far, in document order. */
export class IssueList {
  readonly list: ManifestIssue[] = [];
  error(path: string, message: string): void {
    this.list.push({ path, message, severity: "error" });
  }
  warning(path: string, message: string): void {
    this.list.push({ path, message, severity: "warning" });
  }
}

/** Whether a value is a JSON object (not null, not a list). */
export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A received value as messages name it: `null`, `a list`, `an object`, `number 3`. */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}

/** `field` of the object at `at`, or `field` alone at the top. */
export function pathOf(at: string, field: string): string {
  return at ? `${at}.${field}` : field;
}

/** A required text field: an error when missing or not text, a warning when blank. */
export function requiredString(owner: JsonObject, field: string, at: string, issues: IssueList): void {
  const path = pathOf(at, field);
  const value = owner[field];
  if (value === undefined) issues.error(path, "required string is missing");
  else if (typeof value !== "string") issues.error(path, `must be a string, got ${kindOf(value)}`);
  else if (value.trim() === "") issues.warning(path, "is empty");
}

/** An optional text field: an error when present and not text. */
export function optionalString(owner: JsonObject, field: string, at: string, issues: IssueList): void {
  const value = owner[field];
  if (value !== undefined && typeof value !== "string")
    issues.error(pathOf(at, field), `must be a string, got ${kindOf(value)}`);
}

/** An optional boolean field: an error when present and not a boolean. */
export function optionalBoolean(owner: JsonObject, field: string, at: string, issues: IssueList): void {
  const value = owner[field];
  if (value !== undefined && typeof value !== "boolean")
    issues.error(pathOf(at, field), `must be a boolean, got ${JSON.stringify(value)}`);
}

/**
 * A required non-empty `name`, unique among its siblings: an error when missing, empty
 * or already in `seen` (`duplicate <what> "<name>"`). Returns the name when it is text.
 */
export function uniqueName(
  owner: JsonObject,
  at: string,
  seen: Set<string>,
  what: string,
  issues: IssueList,
): string | undefined {
  const name = owner.name;
  if (typeof name !== "string" || name === "") {
    issues.error(`${at}.name`, "required non-empty string is missing");
    return undefined;
  }
  if (seen.has(name)) issues.error(`${at}.name`, `duplicate ${what} "${name}"`);
  seen.add(name);
  return name;
}

/** Visits each element of `list` that is a JSON object, in order; an error for each that is not. */
export function eachObject(
  list: readonly unknown[],
  path: string,
  issues: IssueList,
  visit: (item: JsonObject, at: string) => void,
): void {
  list.forEach((item, index) => {
    const at = `${path}[${index}]`;
    if (isObject(item)) visit(item, at);
    else issues.error(at, `must be an object, got ${kindOf(item)}`);
  });
}
