import { utimesSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { SamplingErrorCode } from "@executa/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EchoResponder } from "../../src/local/sampling/echo-responder.js";
import { OpenAiRelayResponder } from "../../src/local/sampling/openai-relay.js";
import { createResponder, samplingConfigFromEnv } from "../../src/local/sampling/sampling-config.js";
import { SamplingProvider } from "../../src/local/sampling/sampling-provider.js";
import { ScriptResponder } from "../../src/local/sampling/script-responder.js";
import { expectRpcError, reverseCall, tempDir } from "../helpers/calls.js";

type Result = Record<string, unknown>;

const ask = (text: string, extra: Record<string, unknown> = {}) => ({
  messages: [{ role: "user", content: { type: "text", text } }],
  maxTokens: 100,
  ...extra,
});

describe("SamplingProvider", () => {
  it("echoes the last user message in the wire shape", async () => {
    const provider = new SamplingProvider(new EchoResponder());
    const result = (await provider.handle(
      reverseCall("sampling/createMessage", {
        messages: [
          { role: "user", content: { type: "text", text: "first" } },
          { role: "assistant", content: { type: "text", text: "ok" } },
          { role: "user", content: { type: "text", text: "second" } },
        ],
        maxTokens: 50,
      }),
    )) as Result;
    expect(result).toMatchObject({
      role: "assistant",
      content: { type: "text", text: "second" },
      model: "echo",
      stopReason: "endTurn",
      usage: { inputTokens: expect.any(Number), outputTokens: 2 },
      _meta: { provider: "echo" },
    });
  });

  it("answers JSON when a JSON response format is asked for, and truncates to maxTokens", async () => {
    const provider = new SamplingProvider(new EchoResponder());
    const json = (await provider.handle(
      reverseCall("sampling/createMessage", ask("hi", { responseFormat: { type: "json_object" } })),
    )) as { content: { text: string } };
    expect(JSON.parse(json.content.text)).toEqual({ echo: "hi" });
    const cut = (await provider.handle(
      reverseCall("sampling/createMessage", ask("x".repeat(100), { maxTokens: 2 })),
    )) as Result;
    expect(cut).toMatchObject({ content: { text: "xxxxxxxx" }, stopReason: "maxTokens" });
  });

  it("validates requests with -32004", async () => {
    const provider = new SamplingProvider(new EchoResponder());
    const bad = [
      { messages: [], maxTokens: 10 },
      { messages: [{ role: "user", content: { type: "text", text: "x" } }] },
      ask("x", { maxTokens: 0 }),
      { messages: [{ role: "robot", content: { type: "text", text: "x" } }], maxTokens: 10 },
      { messages: [{ role: "user", content: { type: "image", data: "" } }], maxTokens: 10 },
      ask("x", { includeContext: "allServers" }),
      ask("x", { temperature: "hot" }),
      ask("x", { responseFormat: { type: "yaml" } }),
    ];
    for (const params of bad) {
      await expectRpcError(
        () => provider.handle(reverseCall("sampling/createMessage", params)),
        SamplingErrorCode.INVALID_REQUEST,
      );
    }
  });

  it("enforces the per-call token cap and the per-invoke call cap", async () => {
    const provider = new SamplingProvider(new EchoResponder(), {
      maxTokensPerCall: 100,
      maxCallsPerInvoke: 2,
    });
    await expectRpcError(
      () => provider.handle(reverseCall("sampling/createMessage", ask("x", { maxTokens: 101 }))),
      SamplingErrorCode.MAX_TOKENS_EXCEEDED,
    );
    const controller = new AbortController();
    const call = () =>
      provider.handle(reverseCall("sampling/createMessage", ask("x"), { signal: controller.signal }));
    await call();
    await call();
    await expectRpcError(call, SamplingErrorCode.MAX_CALLS_EXCEEDED);
    // Another invoke has its own budget; a finished invoke's counters are dropped.
    await provider.handle(reverseCall("sampling/createMessage", ask("x"), { invokeId: "other" }));
    controller.abort();
    await call();
  });

  it("enforces the per-invoke token budget", async () => {
    const provider = new SamplingProvider(new EchoResponder(), { maxTokensPerInvoke: 10 });
    await provider.handle(reverseCall("sampling/createMessage", ask("y".repeat(40))));
    await expectRpcError(
      () => provider.handle(reverseCall("sampling/createMessage", ask("again"))),
      SamplingErrorCode.MAX_TOKENS_EXCEEDED,
    );
  });
});

describe("ScriptResponder", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  const sample = async (responder: ScriptResponder, text: string) =>
    (await new SamplingProvider(responder).handle(reverseCall("sampling/createMessage", ask(text)))) as {
      content: { text: string };
      model: string;
    };

  it("answers by substring and /regex/ rules from a file, re-reading it on change", async () => {
    const file = join(dir.path, "script.json");
    writeFileSync(
      file,
      JSON.stringify([
        { match: "weather", reply: "sunny" },
        { match: "/^sum (\\d+)$/i", reply: { total: 3 }, model: "scripted-1" },
        { match: "quota", error: { code: -32002, message: "quota exceeded" } },
      ]),
    );
    const responder = new ScriptResponder({ file });
    expect((await sample(responder, "what's the weather?")).content.text).toBe("sunny");
    const json = await sample(responder, "SUM 12");
    expect(JSON.parse(json.content.text)).toEqual({ total: 3 });
    expect(json.model).toBe("scripted-1");
    await expectRpcError(() => sample(responder, "over quota"), SamplingErrorCode.QUOTA_EXCEEDED);
    await expectRpcError(() => sample(responder, "nothing matches"), SamplingErrorCode.PROVIDER_ERROR);

    writeFileSync(file, JSON.stringify([{ match: "", reply: "catch-all" }]));
    const later = new Date(Date.now() + 5_000);
    utimesSync(file, later, later);
    expect((await sample(responder, "nothing matches")).content.text).toBe("catch-all");
  });

  it("rejects malformed scripts with a clear error", () => {
    const file = join(dir.path, "bad.json");
    writeFileSync(file, "{ not json");
    expect(() => new ScriptResponder({ file })).toThrow(/not valid JSON/);
    writeFileSync(file, JSON.stringify({ match: "x", reply: "y" }));
    expect(() => new ScriptResponder({ file })).toThrow(/JSON list/);
    writeFileSync(file, JSON.stringify([{ match: "/(/", reply: "y" }]));
    expect(() => new ScriptResponder({ file })).toThrow(/bad regular expression/);
    expect(() => new ScriptResponder({ rules: [{ match: "x" }] })).toThrow(/needs a reply or an error/);
    expect(() => new ScriptResponder({ file: join(dir.path, "missing.json") })).toThrow(/cannot read/);
    for (const source of [{ file }, { rules: [{ match: "x" }] }, { file: join(dir.path, "missing.json") }]) {
      expect(() => new ScriptResponder(source as { file: string })).toThrow(
        expect.objectContaining({ hostCode: "INVALID_SAMPLING_CONFIG" }),
      );
    }
  });
});

describe("OpenAiRelayResponder", () => {
  let server: Server;
  let baseUrl: string;
  let requests: {
    headers: IncomingMessage["headers"];
    url: string | undefined;
    body: Record<string, unknown>;
  }[];
  let reply: (body: Record<string, unknown>) => { status: number; body: unknown; delayMs?: number };

  beforeEach(async () => {
    requests = [];
    server = createServer(async (request, response) => {
      let text = "";
      for await (const chunk of request) text += chunk;
      const body = JSON.parse(text) as Record<string, unknown>;
      requests.push({ headers: request.headers, url: request.url, body });
      const answer = reply(body);
      if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
      if (response.destroyed) return;
      response.writeHead(answer.status, { "content-type": "application/json" });
      response.end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const relay = (env: Record<string, string>) =>
    new SamplingProvider(
      createResponder(samplingConfigFromEnv({ EXECUTA_SAMPLING_BASE_URL: baseUrl, ...env })),
    );

  it("relays to /chat/completions with the key and model from the environment", async () => {
    reply = () => ({
      status: 200,
      body: {
        model: "gpt-test-0001",
        choices: [{ message: { role: "assistant", content: "relayed!" }, finish_reason: "length" }],
        usage: { prompt_tokens: 7, completion_tokens: 3 },
      },
    });
    const provider = relay({ EXECUTA_SAMPLING_API_KEY: "sk-local", EXECUTA_SAMPLING_MODEL: "gpt-test" });
    const result = await provider.handle(
      reverseCall(
        "sampling/createMessage",
        ask("hello", {
          systemPrompt: "be brief",
          temperature: 0.2,
          stopSequences: ["###"],
          responseFormat: { type: "json_object" },
        }),
      ),
    );
    expect(result).toMatchObject({
      content: { type: "text", text: "relayed!" },
      model: "gpt-test-0001",
      stopReason: "maxTokens",
      usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 },
      _meta: { provider: "openai-relay" },
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.url).toBe("/v1/chat/completions");
    expect(requests[0]!.headers.authorization).toBe("Bearer sk-local");
    expect(requests[0]!.body).toEqual({
      model: "gpt-test",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "hello" },
      ],
      max_tokens: 100,
      temperature: 0.2,
      stop: ["###"],
      response_format: { type: "json_object" },
    });
  });

  it("uses the first model hint when no model is configured, else fails clearly", async () => {
    reply = (body) => ({ status: 200, body: { choices: [{ message: { content: String(body.model) } }] } });
    const provider = relay({});
    const hinted = (await provider.handle(
      reverseCall(
        "sampling/createMessage",
        ask("x", { modelPreferences: { hints: [{ name: "claude-x" }] } }),
      ),
    )) as { content: { text: string }; stopReason: string };
    expect(hinted.content.text).toBe("claude-x");
    expect(hinted.stopReason).toBe("endTurn");
    await expectRpcError(
      () => provider.handle(reverseCall("sampling/createMessage", ask("x"))),
      SamplingErrorCode.PROVIDER_ERROR,
    );
  });

  it("maps upstream HTTP errors to -32003 and silence to -32005", async () => {
    reply = () => ({ status: 429, body: { error: { message: "slow down" } } });
    const provider = relay({ EXECUTA_SAMPLING_MODEL: "m" });
    const error = await expectRpcError(
      () => provider.handle(reverseCall("sampling/createMessage", ask("x"))),
      SamplingErrorCode.PROVIDER_ERROR,
    );
    expect(error.data).toMatchObject({ status: 429 });

    reply = () => ({ status: 200, body: { choices: [] } });
    await expectRpcError(
      () => provider.handle(reverseCall("sampling/createMessage", ask("x"))),
      SamplingErrorCode.PROVIDER_ERROR,
    );

    reply = () => ({ status: 200, body: {}, delayMs: 1_000 });
    await expectRpcError(
      () => provider.handle(reverseCall("sampling/createMessage", ask("x"), { timeoutMs: 100 })),
      SamplingErrorCode.TIMEOUT,
    );
  });

  it("maps an unreachable endpoint to -32003", async () => {
    const provider = new SamplingProvider(
      new OpenAiRelayResponder({ baseUrl: "http://127.0.0.1:1/v1", model: "m" }),
    );
    await expectRpcError(
      () => provider.handle(reverseCall("sampling/createMessage", ask("x"))),
      SamplingErrorCode.PROVIDER_ERROR,
    );
  });
});

describe("samplingConfigFromEnv", () => {
  it("picks relay, then script, then echo", () => {
    expect(
      samplingConfigFromEnv({ EXECUTA_SAMPLING_BASE_URL: "http://x/v1", EXECUTA_SAMPLING_MODEL: "m" }),
    ).toEqual({
      mode: "relay",
      baseUrl: "http://x/v1",
      model: "m",
    });
    expect(samplingConfigFromEnv({ EXECUTA_SAMPLING_SCRIPT: "/tmp/s.json" })).toEqual({
      mode: "script",
      file: "/tmp/s.json",
    });
    expect(samplingConfigFromEnv({})).toEqual({ mode: "echo" });
  });
});
