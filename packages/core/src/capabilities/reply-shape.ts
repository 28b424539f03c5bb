/**
 * Checks on the shape of the host's replies to reverse calls. A reply in the wrong shape
 * (`items: [null, 3]`, a value nested 5 000 levels deep) becomes the family's error with a
 * message naming the bad field, instead of a `TypeError` deep in tool code.
 */
import { nestsDeeperThan } from "../wire/argument-depth.js";
import { MAX_REPLY_DEPTH } from "../wire/limits.js";
import type { CapabilityError } from "./capability-error.js";
import type { Family } from "./family.js";

/** The family's error for a reply in the wrong shape; `path` names the field, e.g. `items[1].key`. */
export function malformedReply<E extends CapabilityError>(
  family: Family<E>,
  method: string,
  path: string,
  problem: string,
): E {
  const where = path === "" ? "the reply" : path;
  return family.error(
    family.malformedReplyCode,
    `${method}: the host sent a malformed reply: ${where} ${problem}`,
    {
      method,
      reason: "malformed_reply",
      path,
    },
  );
}

/** A reply as an object: absent (null) counts as `{}`; anything else but an object, or nesting too deep, is malformed. */
export function replyObject(family: Family, method: string, reply: unknown): Record<string, unknown> {
  if (reply === undefined || reply === null) return {};
  if (typeof reply !== "object" || Array.isArray(reply)) {
    throw malformedReply(family, method, "", `must be an object, got ${kindOf(reply)}`);
  }
  if (nestsDeeperThan(reply, MAX_REPLY_DEPTH)) {
    throw malformedReply(family, method, "", `is nested deeper than ${MAX_REPLY_DEPTH} levels`);
  }
  return reply as Record<string, unknown>;
}

/** Field types an item may be required to have when present. */
export type FieldKind = "string" | "number" | "boolean" | "array" | "object";

/**
 * `reply[field]` as a list of objects. An absent or non-array field is an empty list (hosts
 * omit empty lists); an element that is not an object, or whose listed fields are present
 * with the wrong type, is malformed.
 */
export function replyItems<I>(
  family: Family,
  method: string,
  reply: Record<string, unknown>,
  field: string,
  fieldKinds: Readonly<Record<string, FieldKind>> = {},
): I[] {
  const list = reply[field];
  if (!Array.isArray(list)) return [];
  list.forEach((item: unknown, index) => {
    const path = `${field}[${index}]`;
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      throw malformedReply(family, method, path, `must be an object, got ${kindOf(item)}`);
    }
    checkFields(family, method, item as Record<string, unknown>, path, fieldKinds);
  });
  return list as I[];
}

/** Throws unless each listed field of `record` is absent or of its kind. */
export function checkFields(
  family: Family,
  method: string,
  record: Record<string, unknown>,
  path: string,
  fieldKinds: Readonly<Record<string, FieldKind>>,
): void {
  for (const [name, kind] of Object.entries(fieldKinds)) {
    const value = record[name];
    if (value === undefined || kindOf(value) === kind) continue;
    const at = path === "" ? name : `${path}.${name}`;
    throw malformedReply(family, method, at, `must be ${article(kind)} ${kind}, got ${kindOf(value)}`);
  }
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function article(kind: string): string {
  return /^[aeiou]/.test(kind) ? "an" : "a";
}
