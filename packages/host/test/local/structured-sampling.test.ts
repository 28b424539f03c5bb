import { SamplingErrorCode } from "@executa/core";
import { describe, expect, it } from "vitest";
import { EchoResponder } from "../../src/local/sampling/echo-responder.js";
import { schemaIssues } from "../../src/local/sampling/json-schema-check.js";
import { sampleForSchema } from "../../src/local/sampling/json-schema-sample.js";
import { createResponder, samplingConfigFromEnv } from "../../src/local/sampling/sampling-config.js";
import { SamplingProvider } from "../../src/local/sampling/sampling-provider.js";
import { ScriptResponder } from "../../src/local/sampling/script-responder.js";
import { withRecordedReport } from "../../src/local/sampling/structured-output.js";
import { expectRpcError, reverseCall } from "../helpers/calls.js";

type Result = { content: { text: string }; _meta: Record<string, unknown> };

const SUMMARY = {
  type: "object",
  properties: {
    summary: { type: "string", minLength: 1, maxLength: 40 },
    keywords: { type: "array", items: { type: "string" }, minItems: 3, maxItems: 8 },
    sentiment: { type: "string", enum: ["positive", "neutral", "negative"] },
    score: { type: "integer", minimum: 1, maximum: 5 },
    ratio: { type: "number", exclusiveMinimum: 0, maximum: 1 },
    source: { $ref: "#/$defs/Source" },
    note: { type: ["string", "null"] },
  },
  required: ["summary", "keywords", "sentiment", "score", "ratio", "source"],
  additionalProperties: false,
  $defs: {
    Source: {
      type: "object",
      properties: { url: { type: "string", format: "uri" }, pages: { type: "integer", minimum: 0 } },
      required: ["url"],
    },
  },
};

const schemaFormat = (schema: Record<string, unknown> = SUMMARY, name = "summary_analysis") => ({
  type: "json_schema",
  json_schema: { name, strict: true, schema },
});

const ask = (text: string, extra: Record<string, unknown> = {}) =>
  reverseCall("sampling/createMessage", {
    messages: [{ role: "user", content: { type: "text", text } }],
    maxTokens: 200,
    ...extra,
  });

describe("structured sampling on the local host", () => {
  it("echo mode answers a value that satisfies the schema, built from the prompt", async () => {
    const provider = new SamplingProvider(new EchoResponder());
    const prompt = "The launch went well and the crowd cheered loudly";
    const result = (await provider.handle(ask(prompt, { responseFormat: schemaFormat() }))) as Result;
    const value = JSON.parse(result.content.text);
    expect(schemaIssues(value, SUMMARY)).toEqual([]);
    expect(value).toMatchObject({
      summary: "The launch went well and the",
      sentiment: "positive",
      score: 1,
      source: { url: "https://example.com/", pages: 0 },
    });
    expect(value.keywords).toEqual(["The", "launch", "went"]);
    expect(value.ratio).toBeGreaterThan(0);
    expect(result._meta.responseFormat).toEqual({
      type: "json_schema",
      applied: "json_schema",
      downgraded: false,
      structuredValid: true,
    });
    // Deterministic: the same prompt gives the same value.
    const again = (await provider.handle(ask(prompt, { responseFormat: schemaFormat() }))) as Result;
    expect(again.content.text).toBe(result.content.text);
  });

  it("script mode reports structuredValid false with the issues when the scripted answer breaks the schema", async () => {
    const provider = new SamplingProvider(
      new ScriptResponder({
        rules: [
          {
            match: "good",
            reply: {
              summary: "s",
              keywords: ["a", "b", "c"],
              sentiment: "neutral",
              score: 3,
              ratio: 0.5,
              source: { url: "https://example.com/a" },
            },
          },
          {
            match: "bad",
            reply: {
              summary: "s",
              keywords: ["a"],
              sentiment: "angry",
              score: 9,
              ratio: 0.5,
              source: {},
              extra: 1,
            },
          },
          { match: "prose", reply: "Sure! Here is your summary." },
        ],
      }),
    );
    const good = (await provider.handle(ask("good", { responseFormat: schemaFormat() }))) as Result;
    expect(good._meta.responseFormat).toMatchObject({ structuredValid: true, downgraded: false });
    const bad = (await provider.handle(ask("bad", { responseFormat: schemaFormat() }))) as Result;
    const report = bad._meta.responseFormat as { structuredValid: boolean; issues: { path: string }[] };
    expect(report.structuredValid).toBe(false);
    expect(report.issues.map((issue) => issue.path).sort()).toEqual([
      "extra",
      "keywords",
      "score",
      "sentiment",
      "source.url",
    ]);
    const prose = (await provider.handle(
      ask("prose", { responseFormat: { type: "json_object" } }),
    )) as Result;
    expect(prose._meta.responseFormat).toMatchObject({ type: "json_object", structuredValid: false });
    expect(prose.content.text).toBe("Sure! Here is your summary.");
  });

  it("follows onUnsupported when the model lacks strict-schema support", async () => {
    const provider = new SamplingProvider(
      createResponder({ mode: "echo", responseFormats: ["json_object"] }),
    );
    const error = await expectRpcError(
      () => provider.handle(ask("x", { responseFormat: schemaFormat() })),
      SamplingErrorCode.UNSUPPORTED_RESPONSE_FORMAT,
    );
    expect(error.data).toMatchObject({
      requested: "json_schema",
      onUnsupported: "error",
      supported: ["json_object"],
    });
    const json = (await provider.handle(
      ask("x", { responseFormat: schemaFormat(), onUnsupported: "json_object" }),
    )) as Result;
    expect(JSON.parse(json.content.text)).toEqual({ echo: "x" });
    expect(json._meta.responseFormat).toMatchObject({
      applied: "json_object",
      downgraded: true,
      structuredValid: false,
    });
    const text = (await provider.handle(
      ask("x", { responseFormat: schemaFormat(), onUnsupported: "text" }),
    )) as Result;
    expect(text.content.text).toBe("x");
    expect(text._meta.responseFormat).toMatchObject({ applied: "text", downgraded: true });

    const none = new SamplingProvider(createResponder({ mode: "echo", responseFormats: [] }));
    await expectRpcError(
      () => none.handle(ask("x", { responseFormat: schemaFormat(), onUnsupported: "json_object" })),
      SamplingErrorCode.UNSUPPORTED_RESPONSE_FORMAT,
    );
  });

  it("refuses schemas beyond the host's limits and malformed formats with -32004", async () => {
    const provider = new SamplingProvider(new EchoResponder());
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 8; i++) deep = { type: "object", properties: { x: deep } };
    const depth = await expectRpcError(
      () => provider.handle(ask("x", { responseFormat: schemaFormat(deep) })),
      SamplingErrorCode.INVALID_REQUEST,
    );
    expect(depth.data).toMatchObject({
      reason: "invalid_response_format",
      limit: "depth",
      actual: 9,
      max: 8,
    });
    const wide = {
      type: "object",
      properties: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`p${i}`, {}])),
    };
    expect(
      (await expectRpcError(() => provider.handle(ask("x", { responseFormat: schemaFormat(wide) })), -32004))
        .data,
    ).toMatchObject({ limit: "nodes" });
    const big = { type: "string", description: "x".repeat(33 * 1024) };
    expect(
      (await expectRpcError(() => provider.handle(ask("x", { responseFormat: schemaFormat(big) })), -32004))
        .data,
    ).toMatchObject({ limit: "bytes" });
    await expectRpcError(
      () => provider.handle(ask("x", { responseFormat: schemaFormat(SUMMARY, "bad name!") })),
      -32004,
    );
    await expectRpcError(
      () => provider.handle(ask("x", { responseFormat: { type: "json_schema" } })),
      -32004,
    );
    await expectRpcError(() => provider.handle(ask("x", { onUnsupported: "retry" })), -32004);
  });

  it("reads the model's formats from the environment and rejects unknown ones", () => {
    expect(samplingConfigFromEnv({ EXECUTA_SAMPLING_RESPONSE_FORMATS: "none" })).toEqual({
      mode: "echo",
      responseFormats: [],
    });
    expect(
      samplingConfigFromEnv({ EXECUTA_SAMPLING_RESPONSE_FORMATS: "json_object" }).responseFormats,
    ).toEqual(["json_object"]);
    expect(() => createResponder({ mode: "echo", responseFormats: ["yaml" as never] })).toThrow(/yaml/);
  });

  it("builds values for combinators, nested arrays and bounds", () => {
    const schema = {
      type: "object",
      properties: {
        choice: { anyOf: [{ type: "integer", exclusiveMinimum: 4 }, { type: "string" }] },
        merged: {
          allOf: [
            { type: "object", properties: { a: { type: "boolean" } }, required: ["a"] },
            { properties: { b: { const: 7 } } },
          ],
        },
        code: { type: "string", minLength: 5 },
        negative: { type: "number", maximum: -2 },
        grid: { type: "array", items: { type: "array", items: { type: "integer" }, minItems: 2 } },
      },
    };
    const value = sampleForSchema(schema, "ab");
    expect(schemaIssues(value, schema)).toEqual([]);
    expect(value).toEqual({
      choice: 5,
      merged: { a: false, b: 7 },
      code: "ababa",
      negative: -2,
      grid: [[0, 0]],
    });
  });

  it("tells apart the elements of a list that must not repeat", () => {
    const unique = (items: Record<string, unknown>, minItems = 3) => ({
      type: "array",
      items,
      minItems,
      uniqueItems: true,
    });
    const schema = {
      type: "object",
      properties: {
        tags: unique({ type: "string", maxLength: 4 }),
        levels: unique({ enum: ["low", "high"] }, 2),
        counts: unique({ type: "integer", minimum: 1 }),
        flags: unique({ type: "boolean" }, 2),
        points: unique({ type: "object", properties: { x: { type: "number" } }, required: ["x"] }),
      },
    };
    const value = sampleForSchema(schema, "word");
    expect(schemaIssues(value, schema)).toEqual([]);
    expect(value).toEqual({
      tags: ["word", "wo 2", "wo 3"],
      levels: ["low", "high"],
      counts: [1, 2, 3],
      flags: [false, true],
      points: [{ x: 0 }, { x: 1 }, { x: 2 }],
    });
    // Without uniqueItems the elements are alike, as before.
    expect(sampleForSchema({ type: "array", items: { type: "integer" }, minItems: 2 }, "w")).toEqual([0, 0]);
  });
});

describe("withRecordedReport", () => {
  const schemaParams = { responseFormat: schemaFormat() };
  const answer = (text: string, meta?: Record<string, unknown>) => ({
    role: "assistant",
    content: { type: "text", text },
    ...(meta ? { _meta: meta } : {}),
  });

  it("adds the host's report to a recorded answer of a structured call", () => {
    const valid = JSON.stringify({
      summary: "s",
      keywords: ["a", "b", "c"],
      sentiment: "neutral",
      score: 2,
      ratio: 0.3,
      source: { url: "https://example.com/a" },
    });
    expect(withRecordedReport(schemaParams, answer(valid, { provider: "mock" }))).toMatchObject({
      _meta: { provider: "mock", responseFormat: { structuredValid: true, downgraded: false } },
    });
    expect(withRecordedReport(schemaParams, answer("not json"))).toMatchObject({
      _meta: { responseFormat: { structuredValid: false } },
    });
  });

  it("keeps a recorded report, and leaves text calls and other shapes alone", () => {
    const recorded = answer("{}", { responseFormat: { downgraded: true } });
    expect(withRecordedReport(schemaParams, recorded)).toBe(recorded);
    const plain = answer("hi");
    expect(withRecordedReport({}, plain)).toBe(plain);
    expect(withRecordedReport(schemaParams, "odd")).toBe("odd");
  });
});
