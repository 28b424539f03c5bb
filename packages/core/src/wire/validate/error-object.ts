import { isObject } from "../../manifest/manifest-issues.js";
import { type WireProblem, wireError } from "./problem.js";

/** Judges a JSON-RPC `error` member: an object with an integer `code` and a string `message`. */
export function validateErrorObject(value: unknown): WireProblem[] {
  if (!isObject(value)) return [wireError("error must be an object")];
  const problems: WireProblem[] = [];
  if (!Number.isInteger(value.code)) problems.push(wireError("error.code must be an integer"));
  if (typeof value.message !== "string") problems.push(wireError("error.message must be a string"));
  return problems;
}
