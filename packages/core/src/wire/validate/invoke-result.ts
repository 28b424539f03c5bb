import { isObject } from "../../manifest/manifest-issues.js";
import { type WireProblem, wireError } from "./problem.js";

/** Judges an `invoke` result: `{success: boolean, data?, error?: string, duration_ms?: number}`. */
export function validateInvokeResult(value: unknown): WireProblem[] {
  if (!isObject(value) || typeof value.success !== "boolean")
    return [wireError("the result must be an object with a boolean success")];
  const problems: WireProblem[] = [];
  if (value.success === false && value.error !== undefined && typeof value.error !== "string")
    problems.push(wireError("error of a failed invoke must be a string"));
  if (value.duration_ms !== undefined && typeof value.duration_ms !== "number")
    problems.push(wireError("duration_ms must be a number"));
  return problems;
}
