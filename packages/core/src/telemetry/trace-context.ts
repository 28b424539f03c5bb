import { isObject } from "../manifest/manifest-issues.js";
import type { InvokeParams } from "../wire/invoke.js";
import type { TraceContext } from "./telemetry.js";

/**
 * The W3C trace context in a request's `params._meta` (MCP 2026-07-28 carries it there,
 * SEP-414), or undefined. Only these two keys are taken: the rest of `_meta` stays out of
 * what is recorded.
 */
export function traceContextOfMeta(params: unknown): TraceContext | undefined {
  const meta = isObject(params) && isObject(params._meta) ? params._meta : undefined;
  return meta === undefined ? undefined : traceContextIn(meta);
}

/** The caller's trace context of an invoke: in `params._meta`, else in `params.context`. */
export function traceContextOfInvoke(params: InvokeParams): TraceContext | undefined {
  return traceContextOfMeta(params) ?? (params.context ? traceContextIn(params.context) : undefined);
}

function traceContextIn(holder: Record<string, unknown>): TraceContext | undefined {
  const { traceparent, tracestate } = holder;
  if (typeof traceparent !== "string") return undefined;
  return typeof tracestate === "string" ? { traceparent, tracestate } : { traceparent };
}
