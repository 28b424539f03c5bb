/**
 * The host's replies to reverse calls in the wrong shape (`items: [null, 3]`, a value
 * nested 5 000 levels deep) become the family's error with a message naming the bad
 * field, instead of a `TypeError` deep in tool code. The shapes themselves are the result
 * schemas of the capability-family table.
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
    throw malformedReply(
      family,
      method,
      "",
      `must be an object, got ${Array.isArray(reply) ? "array" : typeof reply}`,
    );
  }
  if (nestsDeeperThan(reply, MAX_REPLY_DEPTH)) {
    throw malformedReply(family, method, "", `is nested deeper than ${MAX_REPLY_DEPTH} levels`);
  }
  return reply as Record<string, unknown>;
}
