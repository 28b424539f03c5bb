// The sampling family (`llm.sample`): completions, structured output and createObject against the local host.
import { SamplingErrorCode } from "@executa/core";
import { describe, expect, it } from "vitest";
import { failed, MODES, ok, useProbe } from "./harness.js";

const start = useProbe();

const ask = (text: string, extra: Record<string, unknown> = {}) => ({
  op: "sampling.createMessage",
  input: { messages: [{ role: "user", content: text }], maxTokens: 64, ...extra },
});
const summarize = (text: string, extra: Record<string, unknown> = {}) => ({
  op: "sampling.createObject",
  input: { messages: [{ role: "user", content: text }], ...extra },
});
const SCHEMA = {
  type: "json_schema",
  json_schema: {
    name: "verdict",
    schema: {
      type: "object",
      properties: {
        verdict: { type: "string", enum: ["yes", "no"] },
        score: { type: "integer", minimum: 3 },
      },
      required: ["verdict", "score"],
      additionalProperties: false,
    },
  },
};

describe.each(MODES)("sampling (%s)", (mode) => {
  it("answers a completion with usage, totalTokens and the provider in _meta", async () => {
    const probe = await start(mode);
    const [reply] = await probe.run(ask("hello there"));
    expect(ok(reply)).toMatchObject({
      role: "assistant",
      content: { type: "text", text: "hello there" },
      model: "echo",
      stopReason: "endTurn",
      usage: {
        inputTokens: expect.any(Number),
        outputTokens: expect.any(Number),
        totalTokens: expect.any(Number),
      },
      _meta: { provider: "echo" },
    });
  });

  it("honours a json_schema responseFormat offline and reports structuredValid in _meta.responseFormat", async () => {
    const probe = await start(mode);
    const [reply] = await probe.run(ask("is it?", { responseFormat: SCHEMA }));
    const value = ok(reply);
    expect(JSON.parse(value.content.text)).toEqual({ verdict: "yes", score: 3 });
    expect(value._meta.responseFormat).toEqual({
      type: "json_schema",
      applied: "json_schema",
      downgraded: false,
      structuredValid: true,
    });
  });

  it("createObject answers a validated DTO instance from the echo model, with no script", async () => {
    const probe = await start(mode);
    const [created] = await probe.run(summarize("Rockets launched at dawn"));
    expect(ok(created)).toMatchObject({
      object: {
        summary: "Rockets launched at dawn",
        keywords: ["Rockets"],
        sentiment: "positive",
        confidence: 1,
      },
      isInstance: true,
      downgraded: false,
      structuredValid: true,
      attempts: 1,
    });
  });

  it("createObject retries with the problems fed back, then fails with StructuredOutputError", async () => {
    const probe = await start(mode, {
      sampling: [
        {
          match: "does not match the required JSON schema",
          reply: { summary: "fixed", keywords: ["k"], sentiment: "neutral", confidence: 4 },
        },
        { match: "review", reply: { summary: "bad", keywords: [], sentiment: "furious", confidence: 9 } },
        { match: "prose", reply: "I think it is fine." },
      ],
    });
    const [fixed, prose] = await probe.run(
      summarize("review this", { retries: 1 }),
      summarize("prose", { retries: 0 }),
    );
    expect(ok(fixed)).toMatchObject({ object: { summary: "fixed" }, attempts: 2, isInstance: true });
    const error = failed(prose, SamplingErrorCode.PROVIDER_ERROR, "StructuredOutputError");
    expect(error.data).toMatchObject({
      failure: "not_json",
      downgraded: false,
      structuredValid: false,
      attempts: 1,
    });
  });

  it("follows onUnsupported on a model without strict schemas: -32010, or a reported downgrade", async () => {
    const probe = await start(mode, { sampling: { mode: "echo", responseFormats: ["json_object"] } });
    const [refused, downgraded, asText, object] = await probe.run(
      ask("x", { responseFormat: SCHEMA }),
      ask("x", { responseFormat: SCHEMA, onUnsupported: "json_object" }),
      ask("x", { responseFormat: SCHEMA, onUnsupported: "text" }),
      summarize("x", { onUnsupported: "json_object" }),
    );
    const error = failed(refused, SamplingErrorCode.UNSUPPORTED_RESPONSE_FORMAT, "SamplingError");
    expect(error.data).toMatchObject({ requested: "json_schema", supported: ["json_object"] });
    expect(ok(downgraded)._meta.responseFormat).toMatchObject({ applied: "json_object", downgraded: true });
    expect(ok(asText)).toMatchObject({
      content: { text: "x" },
      _meta: { responseFormat: { downgraded: true } },
    });
    // The JSON-mode answer does not fit the class: the caller learns the host downgraded.
    expect(failed(object, SamplingErrorCode.PROVIDER_ERROR, "StructuredOutputError").data).toMatchObject({
      downgraded: true,
      failure: "schema_mismatch",
    });
  });

  it("refuses bad requests with INVALID_REQUEST (-32004), locally or from the host", async () => {
    const probe = await start(mode);
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 9; i++) deep = { type: "object", properties: { x: deep } };
    const outcomes = await probe.run(
      ask("x", { maxTokens: 0 }),
      ask("x", { responseFormat: { type: "json_schema", json_schema: { name: "deep", schema: deep } } }),
      ask("x", { responseFormat: { type: "json_schema", json_schema: { name: "bad name", schema: {} } } }),
      ask("x", { temperature: 7 }),
    );
    for (const outcome of outcomes) failed(outcome, SamplingErrorCode.INVALID_REQUEST, "SamplingError");
    expect(outcomes[1]).toMatchObject({ data: { reason: "invalid_response_format", limit: "depth" } });
  });

  it("enforces the per-call and per-invoke caps: MAX_TOKENS_EXCEEDED (-32007), MAX_CALLS_EXCEEDED (-32006)", async () => {
    const probe = await start(mode, {
      local: { samplingLimits: { maxTokensPerCall: 32, maxCallsPerInvoke: 2 } },
    });
    const [tooMany, first, second, third] = await probe.run(
      ask("x", { maxTokens: 33 }),
      ask("one", { maxTokens: 8 }),
      ask("two", { maxTokens: 8 }),
      ask("three", { maxTokens: 8 }),
    );
    failed(tooMany, SamplingErrorCode.MAX_TOKENS_EXCEEDED, "SamplingError");
    ok(first);
    ok(second);
    failed(third, SamplingErrorCode.MAX_CALLS_EXCEEDED, "SamplingError");
  });

  it("passes the model's failures through: no script rule is PROVIDER_ERROR (-32003); scripted quota/denial keep their codes", async () => {
    const probe = await start(mode, {
      sampling: [
        { match: "quota", error: { code: SamplingErrorCode.QUOTA_EXCEEDED, message: "daily quota used" } },
        { match: "deny", error: { code: SamplingErrorCode.USER_DENIED, message: "the user said no" } },
      ],
    });
    const [unmatched, quota, denied] = await probe.run(ask("nothing matches"), ask("quota"), ask("deny"));
    failed(unmatched, SamplingErrorCode.PROVIDER_ERROR, "SamplingError");
    failed(quota, SamplingErrorCode.QUOTA_EXCEEDED, "SamplingError");
    failed(denied, SamplingErrorCode.USER_DENIED, "SamplingError");
  });

  it("answers from the tooling's fixture lines (llm.complete) before the model", async () => {
    const probe = await start(mode, {
      fixtures: [
        {
          ns: "llm",
          method: "complete",
          match: { promptIncludes: "greet" },
          result: {
            role: "assistant",
            content: { type: "text", text: "Hello! Welcome aboard." },
            model: "mock",
            stopReason: "endTurn",
            usage: { inputTokens: 7, outputTokens: 9, totalTokens: 16 },
          },
        },
      ],
    });
    const [fixture, fallthrough] = await probe.run(ask("please greet me"), ask("something else"));
    expect(ok(fixture)).toMatchObject({ content: { text: "Hello! Welcome aboard." }, model: "mock" });
    expect(ok(fallthrough)).toMatchObject({ content: { text: "something else" }, model: "echo" });
  });

  it("answers NOT_GRANTED (-32001) when not granted and NOT_NEGOTIATED (-32008) on a 1.1 host", async () => {
    const granted = await start(mode, { grantedCapabilities: ["aps.kv"] });
    failed((await granted.run(ask("x")))[0], SamplingErrorCode.NOT_GRANTED, "SamplingError");
    const old = await start(mode, { protocolVersion: "1.1" });
    failed((await old.run(ask("x")))[0], SamplingErrorCode.NOT_NEGOTIATED, "SamplingError");
  });
});
