import type * as OtelApi from "@opentelemetry/api";
import type * as OtelSdkNode from "@opentelemetry/sdk-node";
import type { ReverseChannel } from "../context/reverse-channel.js";
import { RpcError } from "../errors/rpc-error.js";
import type { CallMethod, CallOutcome, CallTrace, Telemetry, TraceContext } from "./telemetry.js";

/** The instrumentation scope the spans and metrics are recorded under. */
const SCOPE = "@executa/core";

/**
 * How long a stop waits for the last export. The exporters retry an unreachable collector
 * for up to `OTEL_EXPORTER_OTLP_TIMEOUT` (10 s): a plugin's exit should not wait on that.
 */
export const FLUSH_BOUND_MS = 2000;

/** The loaded OpenTelemetry packages this module drives. */
export interface OtelModules {
  api: typeof OtelApi;
  sdk: typeof OtelSdkNode;
}

/**
 * Starts the OpenTelemetry Node SDK, configured by the standard `OTEL_*` variables (exporter,
 * endpoint, protocol, headers, sampler, propagators, resource), and records calls through it.
 * `serviceName` names the service when `OTEL_SERVICE_NAME` does not.
 */
export function startOtelTelemetry(
  { api, sdk }: OtelModules,
  serviceName: string,
  env: NodeJS.ProcessEnv,
): Telemetry {
  const nodeSdk = new sdk.NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ? undefined : serviceName,
    instrumentations: [],
    // Calls are traced and measured; the plugin's log goes to stderr as before.
    logRecordProcessors: [],
  });
  nodeSdk.start();
  const tracer = api.trace.getTracer(SCOPE);
  const meter = api.metrics.getMeter(SCOPE);
  const calls = meter.createCounter("executa.tool.calls", {
    description: "Tool calls answered, by method, tool and outcome.",
    unit: "{call}",
  });
  const duration = meter.createHistogram("executa.tool.duration", {
    description: "Time from a tool call's start to its answer.",
    unit: "s",
  });

  const parentContext = (parent: TraceContext | undefined): OtelApi.Context =>
    parent === undefined
      ? api.ROOT_CONTEXT
      : api.propagation.extract(api.ROOT_CONTEXT, parent, api.defaultTextMapGetter);

  return {
    startCall(method: CallMethod, tool: string, parent: TraceContext | undefined): CallTrace {
      const started = performance.now();
      const span = tracer.startSpan(
        `${method} ${tool}`,
        {
          kind: api.SpanKind.SERVER,
          attributes: {
            "rpc.method": method,
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": tool,
            ...(method === "tools/call" ? { "mcp.method.name": method } : {}),
          },
        },
        parentContext(parent),
      );
      const spanContext = api.trace.setSpan(api.ROOT_CONTEXT, span);
      return {
        within: (fn) => api.context.with(spanContext, fn),
        channel: (channel) => tracedChannel(api, tracer, spanContext, channel),
        end(outcome: CallOutcome, error?: unknown) {
          const attributes: OtelApi.Attributes = {
            "rpc.method": method,
            "gen_ai.tool.name": tool,
            "executa.outcome": outcome,
          };
          if (outcome !== "success") {
            attributes["error.type"] = errorType(outcome, error);
            span.setStatus({ code: api.SpanStatusCode.ERROR });
          }
          span.setAttributes(attributes);
          span.end();
          calls.add(1, attributes);
          duration.record((performance.now() - started) / 1000, attributes);
        },
      };
    },
    shutdown: () => withinBound(nodeSdk.shutdown()),
  };
}

/** `channel` with each request a client span under the call's span; its params are not recorded. */
function tracedChannel(
  api: typeof OtelApi,
  tracer: OtelApi.Tracer,
  callContext: OtelApi.Context,
  channel: ReverseChannel,
): ReverseChannel {
  return {
    protocolVersion: () => channel.protocolVersion(),
    hostCapabilities: channel.hostCapabilities,
    async request(method, params, options) {
      const span = tracer.startSpan(
        method,
        { kind: api.SpanKind.CLIENT, attributes: { "rpc.method": method } },
        callContext,
      );
      try {
        return await channel.request(method, params, options);
      } catch (error) {
        span.setAttribute("error.type", errorType("error", error));
        span.setStatus({ code: api.SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  };
}

/** A low-cardinality name for what failed: the JSON-RPC code, else the error's class; never its message. */
function errorType(outcome: CallOutcome, error: unknown): string {
  if (outcome === "tool_error") return "tool_error";
  if (error instanceof RpcError) return String(error.code);
  return error instanceof Error ? error.name : "error";
}

/** `work`, or a rejection once {@link FLUSH_BOUND_MS} passed without it settling. */
function withinBound(work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new Error(`not all exported within ${FLUSH_BOUND_MS} ms; is the OTLP endpoint reachable?`)),
      FLUSH_BOUND_MS,
    );
    timer.unref();
  });
  return Promise.race([work, bound]).finally(() => clearTimeout(timer));
}
