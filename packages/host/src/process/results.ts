import {
  HEALTH_STATUSES,
  type HealthResult,
  type HealthStatus,
  type InitializeResult,
  type InvokeResult,
  type Manifest,
  type ProtocolVersion,
} from "@executa/core";
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

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Checks an `initialize` answer against the version the host offered. */
export function readInitializeResult(value: unknown, offered: ProtocolVersion): Negotiated {
  if (!isObject(value)) throw protocolViolation("initialize", "the result must be an object", value);
  const answered = value.protocolVersion ?? "1.1";
  if (answered !== "2.0" && answered !== "1.1") {
    throw protocolViolation(
      "initialize",
      `protocolVersion must be "2.0" or "1.1", got ${JSON.stringify(answered)}`,
      value,
    );
  }
  if (answered === "2.0" && offered === "1.1") {
    throw protocolViolation("initialize", 'the host offered "1.1" but the plugin answered "2.0"', value);
  }
  return {
    protocolVersion: answered,
    initializeSupported: true,
    result: value as unknown as InitializeResult,
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
  if (!isObject(value) || typeof value.success !== "boolean") {
    throw protocolViolation("invoke", "the result must be an object with a boolean success", value);
  }
  if (value.success === false && value.error !== undefined && typeof value.error !== "string") {
    throw protocolViolation("invoke", "error of a failed invoke must be a string", value);
  }
  if (value.duration_ms !== undefined && typeof value.duration_ms !== "number") {
    throw protocolViolation("invoke", "duration_ms must be a number", value);
  }
  return value as unknown as InvokeResult<D>;
}

/** Checks a `health` result: `status` must be one of ready / error / initializing. */
export function readHealthResult(value: unknown): HealthReport {
  if (!isObject(value)) throw protocolViolation("health", "the result must be an object", value);
  if (!HEALTH_STATUSES.includes(value.status as HealthStatus)) {
    throw protocolViolation(
      "health",
      `status must be one of ${HEALTH_STATUSES.join(", ")}, got ${JSON.stringify(value.status)}`,
      value,
    );
  }
  return { ...(value as unknown as HealthResult), implemented: true };
}
