// The agent family (`llm.agent.auto`): scripted sessions with run frames from the local host.
import { AgentErrorCode } from "@executa/core";
import { describe, expect, it } from "vitest";
import { failed, MODES, ok, useProbe } from "./harness.js";

const start = useProbe();

const create = (input: Record<string, unknown> = {}) => ({ op: "agent.createSession", input });
const run = (content: string) => ({ op: "agent.run", input: { content } });

describe.each(MODES)("agent (%s)", (mode) => {
  it("runs a session's whole life: create, run (frames), history, refresh, list, cancel, delete", async () => {
    const probe = await start(mode);
    const [created, ran, history, refreshed, listed, cancelled, deleted, afterDelete] = await probe.run(
      create({ label: "life", ttlSeconds: 600 }),
      run("plan my day"),
      { op: "agent.history" },
      { op: "agent.refresh", input: { ttlSeconds: 900 } },
      { op: "agent.listSessions" },
      { op: "agent.cancel", input: { runId: "no-such-run" } },
      { op: "agent.delete" },
      run("again"),
    );
    const { info, inheritHostTools } = ok(created);
    expect(info).toMatchObject({ app_session_uuid: expect.any(String), granted_tools: [] });
    expect(inheritHostTools).toBe(false);
    const result = ok(ran);
    expect(result).toMatchObject({ text: "plan my day", completed: true, runId: expect.any(String) });
    expect(result.events[0]).toBe("run_meta");
    expect(result.events).toContain("token");
    expect(result.events.at(-1)).toBe("complete");
    expect(result.warnings.map((warning: { code: string }) => warning.code)).toEqual(["NO_TOOLS_AVAILABLE"]);
    expect(JSON.stringify(ok(history))).toContain("plan my day");
    expect(ok(refreshed)).toMatchObject({ app_session_uuid: info.app_session_uuid });
    expect(ok(listed).map((session: { app_session_uuid: string }) => session.app_session_uuid)).toEqual([
      info.app_session_uuid,
    ]);
    ok(cancelled);
    ok(deleted);
    failed(afterDelete, AgentErrorCode.SESSION_NOT_FOUND, "AgentError");
  });

  it('infers inherit_host_tools from a "*" grant and drops the no-tools warning', async () => {
    const probe = await start(mode, { local: { agent: { grantedTools: ["*"] } } });
    const [created, ran] = await probe.run(create(), run("hi"));
    expect(ok(created).inheritHostTools).toBe(true);
    expect(ok(ran).warnings).toEqual([]);
  });

  it("answers SESSION_NOT_FOUND (-32042), INVALID_REQUEST (-32043) and SUBMODE_MISMATCH (-32044)", async () => {
    const probe = await start(mode);
    const [unknown, badKind, fixed] = await probe.run(
      { op: "agent.attach.run", input: { uuid: "00000000-0000-0000-0000-000000000000", content: "x" } },
      create({ kind: "chatbot" }),
      create({ agentSubmode: "fixed", fixedClientId: "client-1" }),
    );
    failed(unknown, AgentErrorCode.SESSION_NOT_FOUND, "AgentError");
    failed(badKind, AgentErrorCode.INVALID_REQUEST, "AgentError");
    expect(failed(fixed, AgentErrorCode.SUBMODE_MISMATCH, "AgentError").data).toMatchObject({
      granted: ["auto"],
    });
  });

  it("enforces the session cap and the session's quota caps with QUOTA_EXCEEDED (-32045)", async () => {
    const probe = await start(mode, { local: { agent: { maxSessions: 1 } } });
    const [first, over] = await probe.run(create(), create());
    ok(first);
    failed(over, AgentErrorCode.QUOTA_EXCEEDED, "AgentError");
    const capped = await start(mode);
    const [, once, twice] = await capped.run(create({ quotaCaps: { max_runs: 1 } }), run("one"), run("two"));
    ok(once);
    failed(twice, AgentErrorCode.QUOTA_EXCEEDED, "AgentError");
  });

  it("answers PROVIDER_ERROR (-32046) when the model fails a run", async () => {
    const probe = await start(mode, { sampling: [{ match: "known", reply: "ok" }] });
    const [, known, unknown] = await probe.run(create(), run("known question"), run("something else"));
    expect(ok(known).text).toBe("ok");
    expect(failed(unknown, AgentErrorCode.PROVIDER_ERROR, "AgentError").data).toMatchObject({
      upstream_code: -32003,
    });
  });

  it("answers from the tooling's fixture lines (session.create, session.run events, session.list)", async () => {
    const uuid = "aps_fixture_0001";
    const probe = await start(mode, {
      fixtures: [
        {
          ns: "agent",
          method: "session.create",
          result: { app_session_uuid: uuid, expires_in: 600, submode: "auto", granted_tools: ["*"] },
        },
        {
          ns: "agent",
          method: "session.run",
          events: [
            {
              payload: {
                event: "run_meta",
                run_id: "mock-run",
                warnings: [{ code: "NO_TOOLS_AVAILABLE", message: "none" }],
              },
            },
            { payload: { event: "token", text: "12 × 13 " } },
            { payload: { event: "token", text: "= 156" } },
            { payload: { event: "complete" } },
          ],
        },
        {
          ns: "agent",
          method: "session.list",
          result: { sessions: [{ app_session_uuid: uuid, kind: "agent" }] },
        },
      ],
    });
    const [created, ran, listed] = await probe.run(create(), run("What is 12 × 13?"), {
      op: "agent.listSessions",
    });
    // An older host omits inherit_host_tools: the client infers it from the "*" grant.
    expect(ok(created).inheritHostTools).toBe(true);
    expect(ok(ran)).toMatchObject({ text: "12 × 13 = 156", runId: "mock-run", completed: true });
    expect(ok(ran).warnings[0].code).toBe("NO_TOOLS_AVAILABLE");
    expect(ok(listed)).toEqual([{ app_session_uuid: uuid, kind: "agent" }]);
  });

  it("answers NOT_GRANTED (-32041) when not granted, and on a 1.1 host (agent has no not-negotiated code)", async () => {
    const granted = await start(mode, { grantedCapabilities: ["llm.sample"] });
    failed((await granted.run(create()))[0], AgentErrorCode.NOT_GRANTED, "AgentError");
    const old = await start(mode, { protocolVersion: "1.1" });
    const [refused] = await old.run(create());
    expect(failed(refused, AgentErrorCode.NOT_GRANTED).data).toMatchObject({ reason: "not_negotiated" });
  });
});
