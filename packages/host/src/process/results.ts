import {
  type HealthResult,
  type InitializeResult,
  type InvokeResult,
  type Manifest,
  type ProtocolVersion,
} from "@executa/core";
import {
  firstWireError,
  isObject,
  validateHealthResult,
  validateInitializeResult,
  validateInvokeResult,
  type WireProblem,
} from "@executa/core/internal";
import { protocolViolation } from "../errors/call-failures.js";

/** The outcome of the `initialize` handshake. */
export interface Negotiated {
  /** "2.0" when the plugin accepted v2; "1.1" after the -32601 fallback or a 1.1 answer. */
  protocolVersion: ProtocolVersion;
  /** False when the plugin answered -32601 (a v1-only plugin). */
  initializeSupported: boolean;
  /** The plugin's answer, when it had one. */
  result?: InitializeResult;
}

/** What `health()` resolves with. */
export interface HealthReport extends HealthResult {
  /** False when the plugin has no `health` method (-32601), which counts as healthy. */
  implemented: boolean;
}

/** Throws the protocol violation for the first error-severity problem, if any. */
function refuse(method: string, problems: readonly WireProblem[], value: unknown): void {
  const problem = firstWireError(problems);
  if (problem) throw protocolViolation(method, problem.message, value);
}

/** Checks an `initialize` answer against the version the host offered. */
export function readInitializeResult(value: unknown, offered: ProtocolVersion): Negotiated {
  refuse("initialize", validateInitializeResult(value, offered), value);
  const answered = (value as { protocolVersion?: ProtocolVersion }).protocolVersion ?? "1.1";
  return {
    protocolVersion: answered,
    initializeSupported: true,
    result: value as InitializeResult,
  };
}

/**
 * Checks the minimum a host relies on in a manifest: an object whose `tools` is a list of
 * named tools. Full conformance (versions, parameter schemas) is `executa check`'s job.
 */
export function readManifest(value: unknown): Manifest {
  if (!isObject(value)) throw protocolViolation("describe", "the manifest must be an object", value);
  if (!Array.isArray(value.tools))
    throw protocolViolation("describe", "manifest.tools must be a list", value);
  for (const [index, tool] of value.tools.entries()) {
    if (!isObject(tool) || typeof tool.name !== "string" || tool.name === "") {
      throw protocolViolation("describe", `manifest.tools[${index}] has no name`, value);
    }
  }
  if (value.host_capabilities !== undefined) {
    if (
      !Array.isArray(value.host_capabilities) ||
      value.host_capabilities.some((c) => typeof c !== "string")
    ) {
      throw protocolViolation("describe", "manifest.host_capabilities must be a list of strings", value);
    }
  }
  return value as unknown as Manifest;
}

/** Checks an `invoke` result has the `InvokeResult` shape `{success, data, error, duration_ms}`. */
export function readInvokeResult<D>(value: unknown): InvokeResult<D> {
  refuse("invoke", validateInvokeResult(value), value);
  return value as InvokeResult<D>;
}

/** Checks a `health` result: `status` must be one of ready / error / initializing. */
export function readHealthResult(value: unknown): HealthReport {
  refuse("health", validateHealthResult(value), value);
  return { ...(value as HealthResult), implemented: true };
}
