// Agent session handles and structured-output limits on the wire: the fixture plugin
// drives a session through its handle against a scripted host, and a response format over
// the host's limits is never written.
import { afterEach, describe, expect, it } from "vitest";
import { type FakeHost, type ReverseCall, startHost } from "./helpers/fake-host.js";

let host: FakeHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** The reference's fixture answers (`anna-app-llm-demo/fixtures/happy-path.jsonl`), by method. */
const ANSWERS: Record<string, unknown> = {
  "agent/session.create": {
    app_session_uuid: "aps_demo_mock_0001",
    expires_in: 600,
    submode: "auto",
    granted_tools: ["*"],
  },
  "agent/session.run": {
    run_id: "mock-run",
    frames: [
      { event: "run_meta", run_id: "mock-run", granted_tools: ["*"], warnings: [] },
      { event: "token", text: "12 × 13 = " },
      { event: "token", text: "156" },
      { event: "complete" },
    ],
  },
  "agent/session.cancel": { cancelled: true, run_id: "mock-run" },
  "agent/session.history": {
    messages: [
      { role: "user", content: "What is 12 × 13?" },
      { role: "assistant", content: "12 × 13 = 156" },
    ],
  },
  "agent/session.delete": { deleted: true },
};

describe("agent session handle on the wire", () => {
  it("creates, streams a run, cancels the last run, reads history and deletes, stamping the invoke", async () => {
    host = await startHost();
    host.responder = (call: ReverseCall) => ANSWERS[call.method];
    const outcome = await host.outcome("agent_flow", { prompt: "What is 12 × 13?" }, { invoke_id: "inv-a" });
    expect(outcome).toEqual({
      ok: true,
      result: {
        uuid: "aps_demo_mock_0001",
        inheritHostTools: true,
        lastRunId: "mock-run",
        events: ["run_meta", "token", "token", "complete"],
        cancelled: { cancelled: true, run_id: "mock-run" },
        turns: 2,
      },
    });
    expect(host.calls.map((c) => [c.method, c.params.app_session_uuid, c.params.context?.invoke_id])).toEqual(
      [
        ["agent/session.create", undefined, "inv-a"],
        ["agent/session.run", "aps_demo_mock_0001", "inv-a"],
        ["agent/session.cancel", "aps_demo_mock_0001", "inv-a"],
        ["agent/session.history", "aps_demo_mock_0001", "inv-a"],
        ["agent/session.delete", "aps_demo_mock_0001", "inv-a"],
      ],
    );
    expect(host.calls[2]!.params.run_id).toBe("mock-run");
  });
});

describe("responseFormat limits on the wire", () => {
  it("a schema over the limits fails with -32004 and writes no reverse call", async () => {
    host = await startHost();
    host.responder = () => ({ role: "assistant", content: { type: "text", text: "{}" } });
    const deep = (levels: number): Record<string, unknown> =>
      levels <= 1 ? { type: "string" } : { type: "array", items: deep(levels - 1) };
    const outcome = await host.outcome("host_call", {
      path: "sampling.createMessage",
      args: [
        {
          messages: [{ role: "user", content: "x" }],
          maxTokens: 10,
          responseFormat: { type: "json_schema", json_schema: { name: "deep", schema: deep(9) } },
        },
      ],
    });
    expect(outcome).toMatchObject({
      ok: false,
      error: { name: "SamplingError", code: -32004, data: { limit: "depth", actual: 9, max: 8 } },
    });
    expect(host.calls).toHaveLength(0);
    expect(host.frames.some((frame) => frame.method === "sampling/createMessage")).toBe(false);
  });
});
