import { isObject } from "../../manifest/manifest-issues.js";
import { HEALTH_STATUSES } from "../invoke.js";
import { type WireProblem, wireError, wireWarning } from "./problem.js";

/**
 * Judges a `health` result by the spec: `status` must be `ready`, `error` or
 * `initializing` (an error); `message` a string and `details` an object when present
 * (warnings: a host can still read the status).
 */
export function validateHealthResult(value: unknown): WireProblem[] {
  if (!isObject(value)) return [wireError("the result must be an object")];
  const problems: WireProblem[] = [];
  if (!(HEALTH_STATUSES as readonly unknown[]).includes(value.status)) {
    problems.push(
      wireError(
        `status must be one of ${HEALTH_STATUSES.join(", ")}, got ${JSON.stringify(value.status) ?? "nothing"}`,
      ),
    );
  }
  if (value.message !== undefined && typeof value.message !== "string")
    problems.push(wireWarning("message is not a string"));
  if (value.details !== undefined && !isObject(value.details))
    problems.push(wireWarning("details is not an object"));
  return problems;
}
