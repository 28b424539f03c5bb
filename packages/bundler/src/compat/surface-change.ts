import { isObject } from "@executa/core/internal";

/** Whether callers written against the old surface keep working against the new one. */
export type ChangeKind = "breaking" | "compatible";

/** One change of a plugin's tool surface. */
export interface SurfaceChange {
  kind: ChangeKind;
  /** Where, e.g. `tools[get_weather].parameters[city].enum`. */
  path: string;
  /** What changed, in words, e.g. ``enum values removed: `fr` ``. */
  summary: string;
}

/** Collects changes; each comparison step adds to it. */
export class ChangeList {
  readonly changes: SurfaceChange[] = [];

  breaking(path: string, summary: string): void {
    this.changes.push({ kind: "breaking", path, summary });
  }

  compatible(path: string, summary: string): void {
    this.changes.push({ kind: "compatible", path, summary });
  }

  /** `breaking` when `breaks`, else `compatible`. */
  add(breaks: boolean, path: string, summary: string): void {
    this.changes.push({ kind: breaks ? "breaking" : "compatible", path, summary });
  }
}

/** A plain JSON object (not an array, not null). */
export type JsonObject = Record<string, unknown>;

/** `value` when it is a plain object, else an empty one. */
export function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

/** The entries of a list that carry a string `name`, by name (later duplicates ignored). */
export function byName(list: unknown): Map<string, JsonObject> {
  const map = new Map<string, JsonObject>();
  if (!Array.isArray(list)) return map;
  for (const entry of list) {
    const object = asObject(entry);
    if (typeof object.name === "string" && !map.has(object.name)) map.set(object.name, object);
  }
  return map;
}

/** `value` as inline code for Markdown. */
export function code(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return `\`${text}\``;
}
