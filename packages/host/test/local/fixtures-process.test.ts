import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AgentErrorCode, ImageErrorCode, JsonRpcErrorCode } from "@executa/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalProviders, type LocalProviders } from "../../src/local/create-local-providers.js";
import { FixtureError } from "../../src/local/fixtures/fixture-line.js";
import { FixtureSet, matches } from "../../src/local/fixtures/fixture-set.js";
import { loadFixtures, parseFixtures } from "../../src/local/fixtures/load-fixtures.js";
import { withFixtures } from "../../src/local/fixtures/with-fixtures.js";
import { expectRpcError, tempDir } from "../helpers/calls.js";
import { localRouter } from "./local-router.js";

/** Lines in the shapes of the reference examples' `fixtures/*.jsonl`. */
const REFERENCE_SHAPES = [
  {
    ns: "image",
    method: "generate",
    match: { promptIncludes: "Mars" },
    result: {
      images: [{ url: "https://mock.cdn/mars.png", mimeType: "image/png", width: 1024, height: 1024 }],
      model: "mock-dalle-3",
      quota_used: { images_today: 1, images_quota: 50 },
    },
  },
  {
    ns: "image",
    method: "generate",
    result: {
      images: [{ url: "https://mock.cdn/default.png", mimeType: "image/png" }],
      model: "mock-dalle-3",
    },
  },
  {
    ns: "host",
    method: "uploadFile",
    match: { modeEquals: "inline" },
    result: {
      download_url: "https://mock.cdn/up.png",
      r2_key: "exec-uploads/k",
      size_bytes: 2048,
      expires_at: "2030-01-01T00:00:00Z",
    },
  },
  {
    ns: "llm",
    method: "embed",
    result: {
      object: "list",
      model: "anna-managed-v1",
      data: [{ object: "embedding", index: 0, embedding: [0.1, -0.2] }],
      usage: { prompt_tokens: 2, total_tokens: 2 },
    },
  },
  {
    ns: "llm",
    method: "complete",
    result: {
      role: "assistant",
      content: { type: "text", text: "Hello from the fixture" },
      model: "mock",
      stopReason: "endTurn",
      usage: { inputTokens: 1, outputTokens: 4, totalTokens: 5 },
    },
  },
  {
    ns: "tools",
    method: "invoke",
    match: { tool_id: "tool-x", method: "complete" },
    result: { success: true, data: {} },
  },
  {
    ns: "agent",
    method: "session.create",
    result: {
      app_session_uuid: "aps_mock_1",
      expires_in: 600,
      submode: "auto",
      granted_tools: [],
      inherit_host_tools: false,
    },
  },
  {
    ns: "agent",
    method: "session.run",
    events: [
      {
        payload: {
          event: "run_meta",
          run_id: "mock-run",
          warnings: [{ code: "NO_TOOLS_AVAILABLE", message: "no tools" }],
        },
      },
      { payload: { event: "token", text: "12 × 13 " } },
      { payload: { event: "token", text: "= 156" } },
      { payload: { event: "complete" } },
    ],
  },
  {
    ns: "agent",
    method: "session.delete",
    match: { app_session_uuid: "aps_gone" },
    error: { code: -32042, message: "no such session" },
  },
]
  .map((line) => JSON.stringify(line))
  .join("\n");

describe("fixture loader", () => {
  it("reads the reference shapes", () => {
    const lines = parseFixtures(`${REFERENCE_SHAPES}\n\n`, "happy.jsonl");
    expect(lines).toHaveLength(9);
    expect(lines[0]).toMatchObject({
      ns: "image",
      method: "generate",
      match: { promptIncludes: "Mars" },
      source: "happy.jsonl:1",
    });
    expect(lines[7]!.events).toHaveLength(4);
  });

  it("names file:line and the problem for a bad line", () => {
    const bad = (text: string) => {
      try {
        parseFixtures(text, "f.jsonl");
      } catch (error) {
        expect(error).toBeInstanceOf(FixtureError);
        return (error as Error).message;
      }
      throw new Error("expected a FixtureError");
    };
    const good = '{"ns":"image","method":"generate","result":{}}';
    expect(bad(`${good}\n{"ns":"image","method":"generate","result":`)).toMatch(/^f\.jsonl:2: not JSON/);
    expect(bad(`${good}\n\n[1,2]`)).toBe("f.jsonl:3: a fixture line must be a JSON object");
    expect(bad('{"method":"generate","result":{}}')).toMatch(/^f\.jsonl:1: "ns" must be a non-empty string/);
    expect(bad('{"t":0,"kind":"meta"}')).toMatch(/^f\.jsonl:1: "ns" must be/);
    expect(bad('{"ns":"image","method":"generate"}')).toBe(
      'f.jsonl:1: give exactly one of "result", "events" or "error" (found none)',
    );
    expect(bad('{"ns":"a","method":"b","result":1,"error":{"code":1,"message":"m"}}')).toMatch(
      /found result, error/,
    );
    expect(bad('{"ns":"a","method":"b","match":[1],"result":1}')).toBe(
      'f.jsonl:1: "match" must be an object',
    );
    expect(bad('{"ns":"a","method":"b","events":{}}')).toBe('f.jsonl:1: "events" must be a list');
    expect(bad('{"ns":"a","method":"b","error":{"code":"x"}}')).toMatch(/"error" must be/);
  });

  it("reports an unreadable file", () => {
    expect(() => loadFixtures("/nonexistent/fixtures.jsonl")).toThrow(
      /^\/nonexistent\/fixtures\.jsonl: cannot read the fixture file \(ENOENT\)/,
    );
  });
});

describe("fixture matching", () => {
  it("matches Includes, Equals and bare keys, with prompt read from each call shape", () => {
    expect(matches({ promptIncludes: "Mars" }, { prompt: "A poster of Mars" })).toBe(true);
    expect(matches({ promptIncludes: "Mars" }, { prompt: "A poster of Venus" })).toBe(false);
    expect(matches({ promptIncludes: "Mars" }, { content: "Tell me about Mars" })).toBe(true);
    expect(
      matches(
        { promptIncludes: "Mars" },
        { messages: [{ role: "user", content: { type: "text", text: "Mars?" } }] },
      ),
    ).toBe(true);
    expect(matches({ promptIncludes: "Mars" }, { input: ["a", "on Mars"] })).toBe(true);
    expect(matches({ inputIncludes: "on Mars" }, { input: ["a", "on Mars"] })).toBe(true);
    expect(matches({ modeEquals: "inline" }, { mode: "inline" })).toBe(true);
    expect(matches({ modeEquals: "inline" }, { mode: "negotiate" })).toBe(false);
    expect(matches({ tool_id: "t", method: "m" }, { tool_id: "t", method: "m" })).toBe(true);
    expect(matches({ tool_id: "t", method: "m" }, { tool_id: "t" })).toBe(false);
    expect(matches({ "context.invoke_idEquals": "i1" }, { context: { invoke_id: "i1" } })).toBe(true);
    expect(matches({ sizeEquals: { w: 1 } }, { size: { w: 1 } })).toBe(true);
  });

  it("lets the first matching line win and falls back to the first line without match", () => {
    const set = new FixtureSet(
      parseFixtures(
        [
          '{"ns":"image","method":"generate","result":{"n":"default"}}',
          '{"ns":"image","method":"generate","match":{"promptIncludes":"Mars"},"result":{"n":"mars"}}',
          '{"ns":"image","method":"generate","match":{"promptIncludes":"Mar"},"result":{"n":"mar"}}',
          '{"ns":"image","method":"generate","result":{"n":"second default"}}',
        ].join("\n"),
      ),
    );
    expect(set.find("image/generate", { prompt: "Mars" })?.result).toEqual({ n: "mars" });
    expect(set.find("image/generate", { prompt: "Mart" })?.result).toEqual({ n: "mar" });
    expect(set.find("image/generate", { prompt: "Venus" })?.result).toEqual({ n: "default" });
    expect(set.find("image/edit", { prompt: "Venus" })).toBeUndefined();
    expect(new FixtureSet(parseFixtures(REFERENCE_SHAPES)).methods.sort()).toEqual([
      "agent/complete",
      "agent/session.create",
      "agent/session.delete",
      "agent/session.run",
      "embeddings/create",
      "host/uploadFile",
      "image/generate",
      "sampling/createMessage",
      "tools/invoke",
    ]);
  });
});

describe("fixtures in front of the local providers, through the reverse router", () => {
  let dir: ReturnType<typeof tempDir>;
  let local: LocalProviders;
  let send: ReturnType<typeof localRouter>["send"];

  beforeEach(() => {
    dir = tempDir();
    const file = join(dir.path, "happy-path.jsonl");
    writeFileSync(file, `${REFERENCE_SHAPES}\n`);
    local = createLocalProviders({ dataDir: dir.path, sampling: { mode: "echo" }, fixtures: file });
    send = localRouter(local.providers).send;
  });
  afterEach(async () => {
    await local.close();
    dir.remove();
  });

  it("answers matching calls from the fixtures and the rest from the local providers", async () => {
    expect((await send("image/generate", { prompt: "Mars at dawn" })).images[0].url).toBe(
      "https://mock.cdn/mars.png",
    );
    expect((await send("image/generate", { prompt: "Venus" })).images[0].url).toBe(
      "https://mock.cdn/default.png",
    );
    // No image/edit line: the local provider answers, and checks the request.
    await expectRpcError(() => send("image/edit", { prompt: "p" }), ImageErrorCode.INVALID_REQUEST);
    expect((await send("host/uploadFile", { mode: "inline" })).download_url).toBe("https://mock.cdn/up.png");
    const negotiated = await send("host/uploadFile", {
      mode: "negotiate",
      filename: "a.bin",
      mime_type: "application/octet-stream",
      size_bytes: 3,
    });
    expect(negotiated.put_url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect((await send("embeddings/create", { input: "x" })).data[0].embedding).toEqual([0.1, -0.2]);
    const sampled = await send("sampling/createMessage", {
      messages: [{ role: "user", content: { type: "text", text: "hi" } }],
      maxTokens: 5,
    });
    expect(sampled.content.text).toBe("Hello from the fixture");
    expect((await send("agent/complete", { messages: [] })).content.text).toBe("Hello from the fixture");
    // Storage has no line at all: the local provider is untouched.
    expect(await send("storage/get", { key: "k", scope: "tool" })).toMatchObject({ exists: false });
  });

  it("turns streamed events into a buffered run and answers error lines as errors", async () => {
    expect((await send("agent/session.create", {})).app_session_uuid).toBe("aps_mock_1");
    const run = await send("agent/session.run", { app_session_uuid: "aps_mock_1", content: "12 × 13?" });
    expect(run).toMatchObject({
      run_id: "mock-run",
      stream_id: "stream_mock-run",
      final: { text: "12 × 13 = 156" },
    });
    expect(run.frames.map((f: { event: string }) => f.event)).toEqual([
      "run_meta",
      "token",
      "token",
      "complete",
    ]);
    const error = await expectRpcError(
      () => send("agent/session.delete", { app_session_uuid: "aps_gone" }),
      AgentErrorCode.SESSION_NOT_FOUND,
    );
    expect(error.message).toBe("no such session");
    // No matching line and no default: the local agent sessions answer (and know no such session).
    await expectRpcError(
      () => send("agent/session.history", { app_session_uuid: "aps_mock_1" }),
      AgentErrorCode.SESSION_NOT_FOUND,
    );
  });

  it("answers -32601 when no line matches and no provider serves the family", async () => {
    const { send: bare } = localRouter(
      withFixtures(
        {},
        parseFixtures('{"ns":"image","method":"generate","match":{"promptIncludes":"Mars"},"result":{}}'),
      ),
    );
    expect(await bare("image/generate", { prompt: "Mars" })).toEqual({});
    await expectRpcError(
      () => bare("image/generate", { prompt: "Venus" }),
      JsonRpcErrorCode.METHOD_NOT_FOUND,
    );
  });
});
