import { AgentErrorCode } from "@executa/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentProvider } from "../../src/local/agent/agent-provider.js";
import { createLocalProviders, type LocalProviders } from "../../src/local/create-local-providers.js";
import type { SamplingResponder } from "../../src/local/sampling/request.js";
import { expectRpcError, manualClock, tempDir } from "../helpers/calls.js";
import { localRouter } from "./local-router.js";

type Frame = { event: string; text?: string } & Record<string, unknown>;
const joinTokens = (frames: Frame[]) =>
  frames
    .filter((f) => f.event === "token")
    .map((f) => f.text)
    .join("");

describe("AgentProvider through the reverse router", () => {
  let dir: ReturnType<typeof tempDir>;
  let clock: ReturnType<typeof manualClock>;
  let local: LocalProviders;
  let send: ReturnType<typeof localRouter>["send"];

  beforeEach(() => {
    dir = tempDir();
    clock = manualClock(Date.now());
    local = createLocalProviders({
      dataDir: dir.path,
      sampling: {
        mode: "script",
        rules: [
          { match: "12 × 13", reply: "12 × 13 = 156" },
          { match: "boom", error: { code: -32003, message: "upstream down" } },
          { match: "", reply: "Noted, thanks." },
        ],
      },
      agent: { maxSessions: 2 },
      now: clock.now,
    });
    send = localRouter(local.providers).send;
  });
  afterEach(async () => {
    await local.close();
    dir.remove();
  });

  it("creates a session and runs turns: run_meta with NO_TOOLS_AVAILABLE, token frames, complete", async () => {
    const session = await send("agent/session.create", { label: "demo", ttl_seconds: 600 });
    expect(session).toMatchObject({
      kind: "agent",
      agent_submode: "auto",
      expires_in: 600,
      idle_ttl_seconds: 600,
      granted_tools: [],
      inherit_host_tools: false,
      fixed_client_id: null,
    });
    expect(session.app_session_uuid).toMatch(/^aps_[0-9a-f]{24}$/);
    const uuid = session.app_session_uuid;

    const run = await send("agent/session.run", {
      app_session_uuid: uuid,
      content: "What is 12 × 13?",
      run_id: "r1",
    });
    expect(run).toMatchObject({ run_id: "r1", stream_id: "stream_r1", final: { text: "12 × 13 = 156" } });
    const frames = run.frames as Frame[];
    expect(frames[0]).toMatchObject({
      event: "run_meta",
      run_id: "r1",
      app_session_uuid: uuid,
      granted_tools: [],
      inherit_host_tools: false,
      warnings: [expect.objectContaining({ code: "NO_TOOLS_AVAILABLE" })],
    });
    expect(frames.filter((f) => f.event === "token").length).toBe(5);
    expect(joinTokens(frames)).toBe("12 × 13 = 156");
    expect(frames.at(-1)).toEqual({ event: "complete" });

    const echo = await send("agent/session.run", { app_session_uuid: uuid, content: "hello there" }, "inv-2");
    expect(echo.run_id).toMatch(/^run_/);
    expect(joinTokens(echo.frames)).toBe("Noted, thanks.");

    expect(await send("agent/session.history", { app_session_uuid: uuid })).toEqual({
      app_session_uuid: uuid,
      messages: [
        { role: "user", content: "What is 12 × 13?" },
        { role: "assistant", content: "12 × 13 = 156" },
        { role: "user", content: "hello there" },
        { role: "assistant", content: "Noted, thanks." },
      ],
    });
  });

  it("lists, refreshes and deletes sessions; expired and unknown ones are -32042", async () => {
    const a = (await send("agent/session.create", { label: "a", ttl_seconds: 60 })).app_session_uuid;
    clock.advance(1000);
    const b = (await send("agent/session.create", { label: "b" })).app_session_uuid;
    const listed = await send("agent/session.list", {});
    expect(listed.sessions.map((s: { label: string }) => s.label)).toEqual(["b", "a"]);
    expect(listed.sessions[0]).toMatchObject({ app_session_uuid: b, kind: "agent", submode: "auto" });
    expect((await send("agent/session.list", { limit: 1 })).sessions).toHaveLength(1);

    clock.advance(50_000);
    const refreshed = await send("agent/session.refresh", { app_session_uuid: a, ttl_seconds: 120 });
    expect(refreshed).toMatchObject({ app_session_uuid: a, expires_in: 120, idle_ttl_seconds: 120 });
    clock.advance(121_000);
    await expectRpcError(
      () => send("agent/session.run", { app_session_uuid: a, content: "hi" }),
      AgentErrorCode.SESSION_NOT_FOUND,
    );
    expect((await send("agent/session.list", {})).sessions.map((s: { label: string }) => s.label)).toEqual([
      "b",
    ]);
    expect((await send("agent/session.list", { include_expired: true })).sessions).toHaveLength(2);

    expect(await send("agent/session.delete", { app_session_uuid: b })).toEqual({
      deleted: true,
      app_session_uuid: b,
    });
    await expectRpcError(
      () => send("agent/session.history", { app_session_uuid: b }),
      AgentErrorCode.SESSION_NOT_FOUND,
    );
    await expectRpcError(
      () => send("agent/session.delete", { app_session_uuid: "aps_nope" }),
      AgentErrorCode.SESSION_NOT_FOUND,
    );
  });

  it("keeps sessions per plugin: another plugin neither lists nor finds them", async () => {
    const uuid = (await send("agent/session.create", {})).app_session_uuid;
    const call = (pluginName: string) => ({
      method: "agent/session.history",
      params: { app_session_uuid: uuid },
      context: {
        invokeId: "i",
        tool: "t",
        pluginName,
        deadlineMs: 0,
        timeoutMs: 1000,
        userId: "me",
        appId: undefined,
        signal: new AbortController().signal,
      },
    });
    await expectRpcError(
      () => local.providers.agent!.handle(call("someone-else")),
      AgentErrorCode.SESSION_NOT_FOUND,
    );
    expect(await local.providers.agent!.handle(call("demo"))).toMatchObject({ messages: [] });
  });

  it("answers the reference error codes for bad requests, submodes and quotas", async () => {
    await expectRpcError(
      () => send("agent/session.create", { agent_submode: "fixed", fixed_client_id: "c" }),
      AgentErrorCode.SUBMODE_MISMATCH,
    );
    for (const params of [
      { kind: "robot" },
      { ttl_seconds: 5 },
      { system_prompt: "x".repeat(4001) },
      { quota_caps: { max_runs: 0 } },
      { quota_caps: "lots" },
    ]) {
      await expectRpcError(() => send("agent/session.create", params), AgentErrorCode.INVALID_REQUEST);
    }
    const uuid = (await send("agent/session.create", { quota_caps: { max_runs: 1 } })).app_session_uuid;
    await expectRpcError(
      () => send("agent/session.run", { app_session_uuid: uuid, content: "" }),
      AgentErrorCode.INVALID_REQUEST,
    );
    await expectRpcError(
      () => send("agent/session.run", { app_session_uuid: uuid, content: "hi", recursion_limit: 0 }),
      AgentErrorCode.INVALID_REQUEST,
    );
    await expectRpcError(() => send("agent/session.run", { content: "hi" }), AgentErrorCode.INVALID_REQUEST);
    await send("agent/session.run", { app_session_uuid: uuid, content: "hi" });
    const quota = await expectRpcError(
      () => send("agent/session.run", { app_session_uuid: uuid, content: "again" }),
      AgentErrorCode.QUOTA_EXCEEDED,
    );
    expect(quota.data).toEqual({ runs: 1, max_runs: 1 });
    await send("agent/session.create", {});
    await expectRpcError(() => send("agent/session.create", {}), AgentErrorCode.QUOTA_EXCEEDED);
  });

  it("answers a failing reply with -32046, keeping the upstream code", async () => {
    const uuid = (await send("agent/session.create", {})).app_session_uuid;
    const error = await expectRpcError(
      () => send("agent/session.run", { app_session_uuid: uuid, content: "boom" }),
      AgentErrorCode.PROVIDER_ERROR,
    );
    expect(error.data).toEqual({ upstream_code: -32003 });
    expect((await send("agent/session.history", { app_session_uuid: uuid })).messages).toEqual([]);
    await expectRpcError(
      () => send("agent/complete", { messages: [{ role: "user", content: { type: "text", text: "boom" } }] }),
      AgentErrorCode.PROVIDER_ERROR,
    );
  });

  it("answers agent/complete statelessly in the MCP shape", async () => {
    const result = await send("agent/complete", {
      messages: [{ role: "user", content: { type: "text", text: "What is 12 × 13?" } }],
    });
    expect(result).toMatchObject({
      role: "assistant",
      content: { type: "text", text: "12 × 13 = 156" },
      model: "script",
      stopReason: "endTurn",
    });
    expect(result.usage.totalTokens).toBe(result.usage.inputTokens + result.usage.outputTokens);
    await expectRpcError(() => send("agent/complete", { messages: [] }), AgentErrorCode.INVALID_REQUEST);
  });
});

describe("agent/session.cancel", () => {
  it("aborts a run in progress, which then ends with a cancelled frame", async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const responder: SamplingResponder = {
      name: "slow",
      respond: (_request, { signal }) =>
        new Promise((_resolve, reject) => {
          started();
          signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
        }),
    };
    const { send } = localRouter({ agent: new AgentProvider({ responder }) });
    const uuid = (await send("agent/session.create", {})).app_session_uuid;
    const run = send(
      "agent/session.run",
      { app_session_uuid: uuid, content: "long task", run_id: "r9" },
      "inv-a",
    );
    await running;
    await expectRpcError(
      () => send("agent/session.run", { app_session_uuid: uuid, content: "second" }, "inv-b"),
      AgentErrorCode.RATE_LIMITED,
    );
    expect(await send("agent/session.cancel", { app_session_uuid: uuid, run_id: "r9" }, "inv-b")).toEqual({
      cancelled: true,
      run_id: "r9",
    });
    const result = await run;
    expect(result.frames.map((f: Frame) => f.event)).toEqual(["run_meta", "cancelled"]);
    expect(await send("agent/session.cancel", { app_session_uuid: uuid, run_id: "r9" }, "inv-b")).toEqual({
      cancelled: false,
      run_id: "r9",
    });
    expect((await send("agent/session.history", { app_session_uuid: uuid }, "inv-b")).messages).toEqual([]);
  });
});
