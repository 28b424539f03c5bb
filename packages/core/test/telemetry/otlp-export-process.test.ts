import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FixtureProcess, type Frame, invoke, spawnFixture } from "../helpers/spawn-fixture.js";
import { attribute, OtlpReceiver, type OtlpSpan } from "./otlp-receiver.js";

// A plugin built on core (run `pnpm --filter @executa/core build` first), spawned over real
// pipes with the standard OTEL_* variables pointing at a real OTLP/HTTP receiver.
const TRACED_PLUGIN = fileURLToPath(new URL("./fixtures/traced-plugin.mjs", import.meta.url));

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN_ID = "00f067aa0ba902b7";
const TRACEPARENT = `00-${TRACE_ID}-${CALLER_SPAN_ID}-01`;
const SECRET_ARGUMENT = "argument-value-7f3a";
const SECRET_CREDENTIAL = "credential-value-91c2";

let receiver: OtlpReceiver;
let plugin: FixtureProcess | undefined;

beforeEach(async () => {
  receiver = await OtlpReceiver.start();
});

afterEach(async () => {
  plugin?.child.kill("SIGKILL");
  plugin = undefined;
  await receiver.close();
});

function spawnTraced(env: Record<string, string> = {}): FixtureProcess {
  plugin = spawnFixture(
    {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "",
      ...env,
    },
    TRACED_PLUGIN,
  );
  return plugin;
}

/** Closes the plugin's stdin and waits for it to stop: it exports what it holds on the way out. */
async function stopAndCollect(running: FixtureProcess): Promise<void> {
  running.child.stdin.end();
  const exit = await running.exited;
  expect(exit.code, running.stderr()).toBe(0);
}

/** Answers the plugin's next `sampling/createMessage` request as a host or client would. */
async function answerSampling(running: FixtureProcess): Promise<void> {
  const request = await waitForFrame(running, (frame) => frame.method === "sampling/createMessage");
  running.send({
    jsonrpc: "2.0",
    id: request.id,
    result: { role: "assistant", content: { type: "text", text: "hi" }, model: "test-model" },
  });
}

async function waitForFrame(running: FixtureProcess, match: (frame: Frame) => boolean): Promise<Frame> {
  for (let tries = 0; tries < 500; tries++) {
    const found = running.frames.find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the plugin sent no such frame; stderr: ${running.stderr()}`);
}

function spanNamed(spans: OtlpSpan[], name: string): OtlpSpan {
  const span = spans.find((candidate) => candidate.name === name);
  if (!span) throw new Error(`no span "${name}" among ${spans.map((s) => s.name).join(", ")}`);
  return span;
}

describe("OpenTelemetry export from a plugin process", () => {
  it("records each Executa invoke as a span under the caller's traceparent, reverse calls as its children, and metrics", async () => {
    const running = spawnTraced({ FIXTURE_KEY: SECRET_CREDENTIAL });
    await running.call("initialize", { protocolVersion: "2.0", clientInfo: { name: "test-host" } });
    const greeted = await running.call(
      "invoke",
      invoke("greet", { name: SECRET_ARGUMENT }, { invoke_id: "i-1", traceparent: TRACEPARENT }),
    );
    expect(greeted.result).toMatchObject({ success: true, data: { greeting: `hello ${SECRET_ARGUMENT}` } });
    const failed = await running.call("invoke", {
      ...invoke("fail", {}, { invoke_id: "i-2", credentials: { FIXTURE_KEY: SECRET_CREDENTIAL } }),
      _meta: { traceparent: TRACEPARENT },
    });
    expect(failed.result).toMatchObject({ success: false, error: "no luck" });
    const asking = running.call("invoke", invoke("ask", {}, { invoke_id: "i-3", traceparent: TRACEPARENT }));
    await answerSampling(running);
    expect((await asking).result).toMatchObject({ success: true, data: { reply: "hi" } });
    await stopAndCollect(running);

    const spans = receiver.spans();
    const greet = spanNamed(spans, "invoke greet");
    expect(greet).toMatchObject({ traceId: TRACE_ID, parentSpanId: CALLER_SPAN_ID });
    expect(attribute(greet.attributes, "gen_ai.tool.name")).toBe("greet");
    expect(attribute(greet.attributes, "executa.outcome")).toBe("success");
    const fail = spanNamed(spans, "invoke fail");
    expect(fail).toMatchObject({ traceId: TRACE_ID, parentSpanId: CALLER_SPAN_ID, status: { code: 2 } });
    expect(attribute(fail.attributes, "executa.outcome")).toBe("tool_error");
    const ask = spanNamed(spans, "invoke ask");
    const reverse = spanNamed(spans, "sampling/createMessage");
    expect(reverse).toMatchObject({ traceId: TRACE_ID, parentSpanId: ask.spanId });

    const metrics = receiver.metrics();
    const calls = metrics.find((metric) => metric.name === "executa.tool.calls");
    const outcomes = calls?.sum?.dataPoints.map((point) => [
      attribute(point.attributes, "gen_ai.tool.name"),
      attribute(point.attributes, "executa.outcome"),
      Number(point.asInt ?? point.asDouble),
    ]);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        ["greet", "success", 1],
        ["fail", "tool_error", 1],
        ["ask", "success", 1],
      ]),
    );
    const durations = metrics.find((metric) => metric.name === "executa.tool.duration");
    expect(durations?.unit).toBe("s");
    expect(durations?.histogram?.dataPoints.map((point) => Number(point.count))).toEqual([1, 1, 1]);

    const exported = receiver.everything();
    expect(exported).not.toContain(SECRET_ARGUMENT);
    expect(exported).not.toContain(SECRET_CREDENTIAL);
    expect(exported).toContain("traced-fixture");
  });

  it("records each MCP tools/call as a span under the traceparent in params._meta", async () => {
    const running = spawnTraced();
    await running.call("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { sampling: {} },
      clientInfo: { name: "test-client", version: "1.0.0" },
    });
    running.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const greeted = await running.call("tools/call", {
      name: "greet",
      arguments: { name: SECRET_ARGUMENT },
      _meta: { traceparent: TRACEPARENT },
    });
    expect(greeted.result).toMatchObject({ structuredContent: { greeting: `hello ${SECRET_ARGUMENT}` } });
    const asking = running.call("tools/call", {
      name: "ask",
      arguments: {},
      _meta: { traceparent: TRACEPARENT },
    });
    await answerSampling(running);
    expect((await asking).result).toMatchObject({ structuredContent: { reply: "hi" } });
    const failed = await running.call("tools/call", { name: "fail", arguments: {} });
    expect(failed.result).toMatchObject({ isError: true });
    await stopAndCollect(running);

    const spans = receiver.spans();
    const greet = spanNamed(spans, "tools/call greet");
    expect(greet).toMatchObject({ traceId: TRACE_ID, parentSpanId: CALLER_SPAN_ID });
    expect(attribute(greet.attributes, "mcp.method.name")).toBe("tools/call");
    const ask = spanNamed(spans, "tools/call ask");
    expect(spanNamed(spans, "sampling/createMessage")).toMatchObject({
      traceId: TRACE_ID,
      parentSpanId: ask.spanId,
    });
    // Without a traceparent the call starts a trace of its own.
    const fail = spanNamed(spans, "tools/call fail");
    expect(fail.traceId).not.toBe(TRACE_ID);
    expect(fail.parentSpanId ?? "").toBe("");
    expect(attribute(fail.attributes, "executa.outcome")).toBe("tool_error");
    expect(receiver.metrics().map((metric) => metric.name)).toEqual(
      expect.arrayContaining(["executa.tool.calls", "executa.tool.duration"]),
    );
    expect(receiver.everything()).not.toContain(SECRET_ARGUMENT);
  });

  it("takes the traceparent from the 2026-07-28 envelope in params._meta", async () => {
    const running = spawnTraced();
    const greeted = await running.call("tools/call", {
      name: "greet",
      arguments: { name: SECRET_ARGUMENT },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "test-client", version: "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
        traceparent: TRACEPARENT,
      },
    });
    expect(greeted.result).toMatchObject({ structuredContent: { greeting: `hello ${SECRET_ARGUMENT}` } });
    await stopAndCollect(running);
    const greet = spanNamed(receiver.spans(), "tools/call greet");
    expect(greet).toMatchObject({ traceId: TRACE_ID, parentSpanId: CALLER_SPAN_ID });
    expect(receiver.everything()).not.toContain(SECRET_ARGUMENT);
  });

  it("stops without waiting out the exporter's retries when the collector does not answer", async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const running = spawnTraced({
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      });
      const greeted = await running.call("invoke", invoke("greet", { name: "Ada" }));
      expect(greeted.result).toMatchObject({ success: true });
      await stopAndCollect(running);
      expect(running.stderr()).toContain("exporting telemetry at stop failed: not all exported within");
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it("loads and sends nothing when no OTLP endpoint is set", async () => {
    const running = spawnTraced({ OTEL_EXPORTER_OTLP_ENDPOINT: "" });
    const state = await running.call("invoke", invoke("otel_state", {}, { traceparent: TRACEPARENT }));
    expect(state.result).toMatchObject({ success: true, data: { registered: false } });
    await stopAndCollect(running);
    expect(receiver.bodies).toEqual([]);
  });

  it("sets the OpenTelemetry API up when an endpoint is set", async () => {
    const running = spawnTraced();
    const state = await running.call("invoke", invoke("otel_state"));
    expect(state.result).toMatchObject({ success: true, data: { registered: true } });
    await stopAndCollect(running);
  });
});
