import { InvalidParamsError } from "../errors/invalid-params-error.js";
import { MAX_ARGUMENT_DEPTH } from "./limits.js";

/**
 * Whether `value` nests objects/arrays more than `max` levels deep (the value itself
 * counts as level 1). Recursion is bounded by `max`, so any depth is safe to ask about.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (max <= 0) return true;
  if (Array.isArray(value)) {
    for (const element of value) {
      if (typeof element === "object" && element !== null && nestsDeeperThan(element, max - 1)) return true;
    }
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const field = record[key];
    if (typeof field === "object" && field !== null && nestsDeeperThan(field, max - 1)) return true;
  }
  return false;
}

/** The -32602 answer to arguments nested deeper than {@link MAX_ARGUMENT_DEPTH}. */
export function argumentsTooDeepError(path = ""): InvalidParamsError {
  const where = path === "" ? "arguments are" : `argument ${path} is`;
  return new InvalidParamsError(
    `Invalid arguments: ${where} nested deeper than ${MAX_ARGUMENT_DEPTH} levels`,
    [{ path, message: `nested deeper than ${MAX_ARGUMENT_DEPTH} levels` }],
  );
}

/** Throws {@link argumentsTooDeepError} when `args` nest deeper than {@link MAX_ARGUMENT_DEPTH}. */
export function checkArgumentDepth(args: unknown): void {
  if (nestsDeeperThan(args, MAX_ARGUMENT_DEPTH)) throw argumentsTooDeepError();
}
