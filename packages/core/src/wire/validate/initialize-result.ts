import { isObject } from "../../manifest/manifest-issues.js";
import type { ProtocolVersion } from "../invoke.js";
import { type WireProblem, wireError } from "./problem.js";

/**
 * Judges an `initialize` result against the version the host offered: an object whose
 * `protocolVersion` (absent means "1.1") is "2.0" or "1.1", and not above the offer.
 */
export function validateInitializeResult(value: unknown, offered: ProtocolVersion = "2.0"): WireProblem[] {
  if (!isObject(value)) return [wireError("the result must be an object")];
  const answered = value.protocolVersion ?? "1.1";
  if (answered !== "2.0" && answered !== "1.1")
    return [wireError(`protocolVersion must be "2.0" or "1.1", got ${JSON.stringify(answered)}`)];
  if (answered === "2.0" && offered === "1.1")
    return [wireError('the host offered "1.1" but the plugin answered "2.0"')];
  return [];
}
