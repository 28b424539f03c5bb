/** One place where two manifests differ. */
export interface ManifestDifference {
  /** Where, e.g. `tools[get_weather].parameters[city].type`; list entries are named by their `name`. */
  path: string;
  /** The value in the reference (source) manifest; `undefined` when absent there. */
  expected: unknown;
  /** The value in the artifact's manifest; `undefined` when absent there. */
  actual: unknown;
}

/**
 * Compares two manifests as JSON values: key order does not matter, list entries that
 * carry a `name` (tools, parameters, credentials) are matched by name, other lists by
 * position. Returns every difference, empty when they are equal.
 */
export function diffManifests(expected: unknown, actual: unknown): ManifestDifference[] {
  const differences: ManifestDifference[] = [];
  diff(expected, actual, "", differences);
  return differences;
}

function diff(expected: unknown, actual: unknown, path: string, out: ManifestDifference[]): void {
  if (Object.is(expected, actual)) return;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (isNamedList(expected) && isNamedList(actual)) diffNamed(expected, actual, path, out);
    else diffIndexed(expected, actual, path, out);
    return;
  }
  if (isPlainObject(expected) && isPlainObject(actual)) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const key of [...keys].sort()) {
      diff(expected[key], actual[key], path ? `${path}.${key}` : key, out);
    }
    return;
  }
  out.push({ path: path || "(root)", expected, actual });
}

function diffIndexed(expected: unknown[], actual: unknown[], path: string, out: ManifestDifference[]): void {
  const length = Math.max(expected.length, actual.length);
  for (let index = 0; index < length; index++) diff(expected[index], actual[index], `${path}[${index}]`, out);
}

function diffNamed(
  expected: { name: string }[],
  actual: { name: string }[],
  path: string,
  out: ManifestDifference[],
): void {
  const order = (list: { name: string }[]) => list.map((entry) => entry.name).join("\0");
  if (order(expected) !== order(actual) && sameNames(expected, actual)) {
    out.push({
      path: `${path} (order)`,
      expected: expected.map((entry) => entry.name),
      actual: actual.map((entry) => entry.name),
    });
  }
  const byName = new Map(actual.map((entry) => [entry.name, entry]));
  for (const entry of expected) diff(entry, byName.get(entry.name), `${path}[${entry.name}]`, out);
  const known = new Set(expected.map((entry) => entry.name));
  for (const entry of actual) {
    if (!known.has(entry.name))
      out.push({ path: `${path}[${entry.name}]`, expected: undefined, actual: entry });
  }
}

function sameNames(a: { name: string }[], b: { name: string }[]): boolean {
  return a.length === b.length && a.every((entry) => b.some((other) => other.name === entry.name));
}

function isNamedList(list: unknown[]): list is { name: string }[] {
  const names = new Set<string>();
  for (const entry of list) {
    if (!isPlainObject(entry) || typeof entry.name !== "string" || names.has(entry.name)) return false;
    names.add(entry.name);
  }
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Renders differences one per line, at most `limit` of them. */
export function formatDifferences(differences: readonly ManifestDifference[], limit = 12): string {
  const show = (value: unknown) => (value === undefined ? "(absent)" : JSON.stringify(value));
  const lines = differences
    .slice(0, limit)
    .map((d) => `  ${d.path}: source ${show(d.expected)}, artifact ${show(d.actual)}`);
  if (differences.length > limit) lines.push(`  … and ${differences.length - limit} more`);
  return lines.join("\n");
}
