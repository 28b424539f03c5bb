import { HEALTH_STATUSES, type HealthResult, type HealthStatus } from "@executa/core";
import { isPlainObject } from "../binding/sanitize.js";

/**
 * What a `@Health()` method returned, as a `HealthResult`: a bare status string becomes
 * `{ status }`; an object is passed on. Anything else is an error (answered as
 * `{ status: "error" }` by the server), naming the allowed statuses.
 */
export function normalizeHealth(value: unknown, where: string): HealthResult {
  if (typeof value === "string" && HEALTH_STATUSES.includes(value as HealthStatus)) {
    return { status: value as HealthStatus };
  }
  if (isPlainObject(value) && HEALTH_STATUSES.includes(value.status as HealthStatus)) {
    return value as unknown as HealthResult;
  }
  throw new Error(
    `${where} returned ${JSON.stringify(value)}; return one of ${HEALTH_STATUSES.join(", ")} or { status, message, details }`,
  );
}
