// Agent session handles in process on a fake ReverseChannel: create/attach/list, typed run
// frames (the reference's own fixture shapes), the text and warning helpers, lifecycle calls.
import { AgentError, AgentRun, AgentSession, NO_TOOLS_AVAILABLE, RpcError } from "@executa/core";
import { describe, expect, it } from "vitest";
import { fakeHost } from "./helpers/fake-channel.js";

/** The frames of the reference's `anna-app-llm-demo/fixtures/happy-path.jsonl` run, as the host buffers them. */
const REFERENCE_RUN = {
  run_id: "mock-run",
  stream_id: "st-1",
  frames: [
    {
      event: "run_meta",
      run_id: "mock-run",
      app_session_uuid: "aps_demo_mock_0001",
      submode: "auto",
      inherit_host_tools: false,
      granted_tools: [],
      warnings: [
        { code: "NO_TOOLS_AVAILABLE", message: "This agent session resolved ZERO executable tools." },
      ],
    },
    { event: "token", text: "12 " },
    { event: "token", text: "× " },
    { event: "token", text: "13 " },
    { event: "token", text: "= " },
    { event: "token", text: "156" },
    { event: "complete" },
  ],
  final: { text: "12 × 13 = 156" },
};

const CREATED = { app_session_uuid: "aps_1", expires_in: 600, kind: "agent", granted_tools: ["*"] };

describe("agent.createSession", () => {
  it("sends agent/session.create and answers a handle; inherit_host_tools inferred from '*' when omitted", async () => {
    const { host, sent } = fakeHost({ respond: () => CREATED });
    const session = await host.agent.createSession({ label: "triage", ttlSeconds: 600 });
    expect(session).toBeInstanceOf(AgentSession);
    expect(sent[0]!.method).toBe("agent/session.create");
    expect(sent[0]!.params).toMatchObject({
      kind: "agent",
      agent_submode: "auto",
      label: "triage",
      ttl_seconds: 600,
    });
    expect(session.uuid).toBe("aps_1");
    expect(session.grantedTools).toEqual(["*"]);
    expect(session.inheritHostTools).toBe(true);
    expect(session.info.inherit_host_tools).toBe(true);
    expect(session.expiresIn).toBe(600);
  });

  it("keeps the host's inherit_host_tools when it sends one, and [] means text only", async () => {
    const { host, state } = fakeHost({ respond: () => ({ ...CREATED, inherit_host_tools: false }) });
    expect((await host.agent.createSession()).inheritHostTools).toBe(false);
    state.respond = () => ({ app_session_uuid: "aps_2", granted_tools: [] });
    const textOnly = await host.agent.createSession();
    expect(textOnly.inheritHostTools).toBe(false);
    expect(textOnly.grantedTools).toEqual([]);
  });

  it("a create reply without app_session_uuid is a malformed reply", async () => {
    const { host } = fakeHost({ respond: () => ({ granted_tools: ["*"] }) });
    const error = (await host.agent.createSession().catch((e: unknown) => e)) as AgentError;
    expect(error).toBeInstanceOf(AgentError);
    expect(error.code).toBe(AgentError.codes.PROVIDER_ERROR);
    expect(error.isMalformedReply()).toBe(true);
    expect(error.data).toMatchObject({ path: "app_session_uuid" });
  });
});

describe("session.run frames", () => {
  it("types the reference's frames, joins the tokens and surfaces NO_TOOLS_AVAILABLE", async () => {
    const { host, sent } = fakeHost({
      respond: (method) => (method === "agent/session.run" ? REFERENCE_RUN : CREATED),
    });
    const session = await host.agent.createSession();
    const run = await session.run("What is 12 × 13?", { recursionLimit: 8 });
    expect(sent[1]!.params).toMatchObject({
      app_session_uuid: "aps_1",
      content: "What is 12 × 13?",
      recursion_limit: 8,
    });
    expect(run).toBeInstanceOf(AgentRun);
    expect(run.frames.map((frame) => frame.event)).toEqual([
      "run_meta",
      "token",
      "token",
      "token",
      "token",
      "token",
      "complete",
    ]);
    expect(run.text).toBe("12 × 13 = 156");
    expect(run.runId).toBe("mock-run");
    expect(run.streamId).toBe("st-1");
    expect(run.completed).toBe(true);
    expect(run.error).toBeUndefined();
    expect(run.meta).toMatchObject({ submode: "auto", granted_tools: [], inherit_host_tools: false });
    expect(run.warnings.map((warning) => warning.code)).toEqual([NO_TOOLS_AVAILABLE]);
    expect(run.noToolsAvailable).toBe(true);
    expect(session.lastRunId).toBe("mock-run");
  });

  it("stream() yields the frames in order and returns the run; a run is iterable too", async () => {
    const { host } = fakeHost({ respond: () => REFERENCE_RUN });
    const session = host.agent.attach("aps_demo_mock_0001");
    const events: string[] = [];
    const stream = session.stream("go");
    let step = await stream.next();
    while (!step.done) {
      events.push(step.value.event);
      step = await stream.next();
    }
    expect(events).toEqual(["run_meta", "token", "token", "token", "token", "token", "complete"]);
    expect(step.value).toBeInstanceOf(AgentRun);
    const texts: string[] = [];
    for await (const frame of await session.run("again")) if (frame.event === "token") texts.push(frame.text);
    expect(texts.join("")).toBe("12 × 13 = 156");
  });

  it("unwraps SSE payload envelopes, infers run_meta's inherit flag, keeps unknown events as 'other'", async () => {
    const { host } = fakeHost({
      respond: () => ({
        frames: [
          { payload: { event: "run_meta", run_id: "r9", granted_tools: ["*"] } },
          { event: "tool_start", tool: "read_file" },
          { event: "delta", text: "a" },
          { event: "message", text: "b" },
          { event: "error", code: "RATE", message: "slow down" },
        ],
      }),
    });
    const run = await host.agent.attach("aps_1").run("go");
    expect(run.meta).toMatchObject({ run_id: "r9", inherit_host_tools: true, warnings: [] });
    expect(run.runId).toBe("r9");
    expect(run.frames[1]).toEqual({
      event: "other",
      name: "tool_start",
      data: { event: "tool_start", tool: "read_file" },
    });
    expect(run.text).toBe("ab");
    expect(run.error).toMatchObject({ code: "RATE", message: "slow down" });
    expect(run.completed).toBe(false);
  });

  it("falls back to a final frame's text when no token came", async () => {
    const { host } = fakeHost({
      respond: () => ({ frames: [{ event: "final", text: "whole answer" }, { event: "complete" }] }),
    });
    expect((await host.agent.attach("aps_1").run("go")).text).toBe("whole answer");
  });

  it("rejects an empty input locally", async () => {
    const { host, sent } = fakeHost();
    const error = (await host.agent
      .attach("aps_1")
      .run("")
      .catch((e: unknown) => e)) as AgentError;
    expect(error.code).toBe(AgentError.codes.INVALID_REQUEST);
    expect(sent).toHaveLength(0);
  });
});

describe("session lifecycle", () => {
  it("cancel() defaults to the last run; history, refresh and delete address the session", async () => {
    const answers: Record<string, unknown> = {
      "agent/session.create": CREATED,
      "agent/session.run": REFERENCE_RUN,
      "agent/session.cancel": { cancelled: true, run_id: "mock-run" },
      "agent/session.history": {
        messages: [
          { role: "user", content: "What is 12 × 13?" },
          { role: "assistant", content: "12 × 13 = 156" },
        ],
      },
      "agent/session.refresh": { app_session_uuid: "aps_1", expires_in: 1200, idle_ttl_seconds: 1200 },
      "agent/session.delete": { deleted: true },
    };
    const { host, sent } = fakeHost({ respond: (method) => answers[method] });
    const session = await host.agent.createSession();
    await session.run("What is 12 × 13?");
    expect(await session.cancel()).toEqual({ cancelled: true, run_id: "mock-run" });
    const history = await session.history();
    expect(history.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(await session.refresh({ ttlSeconds: 1200 })).toMatchObject({ expires_in: 1200 });
    expect(session.expiresIn).toBe(1200);
    expect(session.inheritHostTools).toBe(true);
    expect(await session.delete()).toEqual({ deleted: true });
    expect(
      sent.map((s) => [s.method, s.params.app_session_uuid, s.params.run_id, s.params.ttl_seconds]),
    ).toEqual([
      ["agent/session.create", undefined, undefined, undefined],
      ["agent/session.run", "aps_1", undefined, undefined],
      ["agent/session.cancel", "aps_1", "mock-run", undefined],
      ["agent/session.history", "aps_1", undefined, undefined],
      ["agent/session.refresh", "aps_1", undefined, 1200],
      ["agent/session.delete", "aps_1", undefined, undefined],
    ]);
  });

  it("a history reply without messages answers an empty list", async () => {
    const { host } = fakeHost({ respond: () => ({}) });
    expect((await host.agent.attach("aps_1").history()).messages).toEqual([]);
  });

  it("a host error keeps its code (session expired: SESSION_NOT_FOUND)", async () => {
    const { host } = fakeHost({
      respond: () => {
        throw new RpcError(-32042, "session expired");
      },
    });
    const error = (await host.agent
      .attach("aps_gone")
      .run("hi")
      .catch((e: unknown) => e)) as AgentError;
    expect(error).toBeInstanceOf(AgentError);
    expect(error.isSessionNotFound()).toBe(true);
  });
});

describe("agent.listSessions and attach", () => {
  it("unwraps result.sessions and attaches to an entry without sending anything", async () => {
    const summary = { app_session_uuid: "aps_demo_mock_0001", kind: "agent", submode: "auto", label: "demo" };
    const { host, sent } = fakeHost({ respond: () => ({ sessions: [summary] }) });
    const sessions = await host.agent.listSessions({ includeExpired: true, limit: 5 });
    expect(sessions).toEqual([summary]);
    expect(sent[0]!.method).toBe("agent/session.list");
    expect(sent[0]!.params).toMatchObject({ include_expired: true, limit: 5 });
    const handle = host.agent.attach(sessions[0]!);
    expect(handle.uuid).toBe("aps_demo_mock_0001");
    expect(handle.info.label).toBe("demo");
    expect(sent).toHaveLength(1);
  });

  it("answers [] when the host sends no sessions, and rejects a malformed entry", async () => {
    const { host, state } = fakeHost({ respond: () => ({}) });
    expect(await host.agent.listSessions()).toEqual([]);
    state.respond = () => ({ sessions: [{ app_session_uuid: 7 }] });
    const error = (await host.agent.listSessions().catch((e: unknown) => e)) as AgentError;
    expect(error.isMalformedReply()).toBe(true);
    expect(error.data).toMatchObject({ path: "sessions[0].app_session_uuid" });
  });

  it("attach needs a non-empty uuid", () => {
    const { host } = fakeHost();
    expect(() => host.agent.attach("")).toThrow(AgentError);
  });
});
