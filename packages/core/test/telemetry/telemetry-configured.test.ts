import { describe, expect, it } from "vitest";
import { telemetryConfigured } from "../../src/telemetry/load-telemetry.js";
import { traceContextOfInvoke, traceContextOfMeta } from "../../src/telemetry/trace-context.js";

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("whether OpenTelemetry is configured", () => {
  it("is on with any OTLP endpoint variable and off without one", () => {
    expect(telemetryConfigured({})).toBe(false);
    expect(telemetryConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toBe(false);
    expect(telemetryConfigured({ OTEL_SERVICE_NAME: "x", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toBe(
      false,
    );
    expect(telemetryConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true);
    expect(
      telemetryConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" }),
    ).toBe(true);
    expect(
      telemetryConfigured({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://127.0.0.1:4318/v1/metrics" }),
    ).toBe(true);
  });

  it("is off when OTEL_SDK_DISABLED is true, as the SDK reads it", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" };
    expect(telemetryConfigured({ ...endpoint, OTEL_SDK_DISABLED: "TRUE" })).toBe(false);
    expect(telemetryConfigured({ ...endpoint, OTEL_SDK_DISABLED: "false" })).toBe(true);
  });
});

describe("the caller's trace context", () => {
  it("takes only traceparent and tracestate from _meta", () => {
    expect(
      traceContextOfMeta({ _meta: { traceparent: TRACEPARENT, tracestate: "k=v", progressToken: 1 } }),
    ).toEqual({ traceparent: TRACEPARENT, tracestate: "k=v" });
    expect(traceContextOfMeta({ _meta: { traceparent: 7 } })).toBeUndefined();
    expect(traceContextOfMeta({ name: "greet" })).toBeUndefined();
  });

  it("reads an invoke's _meta first, then its context", () => {
    const other = "00-11111111111111111111111111111111-2222222222222222-01";
    expect(traceContextOfInvoke({ tool: "t", context: { traceparent: TRACEPARENT } })).toEqual({
      traceparent: TRACEPARENT,
    });
    expect(
      traceContextOfInvoke({
        tool: "t",
        context: { traceparent: other },
        _meta: { traceparent: TRACEPARENT },
      }),
    ).toEqual({ traceparent: TRACEPARENT });
    expect(traceContextOfInvoke({ tool: "t", context: {} })).toBeUndefined();
  });
});
