// Structured sampling in process on a fake ReverseChannel: responseFormat limits checked
// before sending, onUnsupported, -32010, the host's _meta.responseFormat report, usage
// totals, and createObject through a registered schema provider (retry path included).
import {
  type ObjectSchemaProvider,
  parseJsonAnswer,
  RESPONSE_FORMAT_LIMITS,
  RpcError,
  SamplingError,
  StructuredOutputError,
  totalTokens,
} from "@executa/core";
import { registerObjectSchemaProvider } from "@executa/core/internal";
import { afterEach, describe, expect, it } from "vitest";
import { fakeHost } from "./helpers/fake-channel.js";

const messages = [{ role: "user" as const, content: "Summarize: the sky is blue." }];

function schemaFormat(schema: Record<string, unknown>, name = "summary") {
  return { type: "json_schema" as const, json_schema: { name, strict: true, schema } };
}

/** A schema nested `levels` objects deep (the root counts as one). */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 1; i < levels; i += 1) schema = { type: "object", properties: { x: schema } };
  return schema;
}

async function rejection(promise: Promise<unknown>): Promise<SamplingError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SamplingError);
  return error as SamplingError;
}

describe("responseFormat limits, checked before sending", () => {
  const cases: [string, unknown, RegExp, Record<string, unknown>?][] = [
    [
      "a schema over 32 KB",
      schemaFormat({ type: "object", description: "x".repeat(RESPONSE_FORMAT_LIMITS.maxSchemaBytes) }),
      /bytes serialized; the host allows at most 32768/,
      { limit: "bytes", max: 32768 },
    ],
    [
      "a schema 9 levels deep",
      schemaFormat(nested(9)),
      /nests 9 levels deep; the host allows at most 8/,
      { limit: "depth" },
    ],
    [
      "a schema with 513 nodes",
      schemaFormat({
        type: "object",
        properties: Object.fromEntries(Array.from({ length: 512 }, (_, i) => [`p${i}`, { type: "string" }])),
      }),
      /has 513 nodes; the host allows at most 512/,
      { limit: "nodes", actual: 513 },
    ],
    ["a name with a space", schemaFormat({ type: "object" }, "my schema"), /name must match/],
    ["a name of 65 characters", schemaFormat({ type: "object" }, "n".repeat(65)), /name must match/],
    ["an unknown type", { type: "yaml" }, /\.type must be "json_object" or "json_schema"/],
    [
      "a json_schema without schema",
      { type: "json_schema", json_schema: { name: "a" } },
      /schema must be a JSON Schema object/,
    ],
  ];
  it.each(cases)("%s fails with -32004 and sends nothing", async (_label, responseFormat, message, data) => {
    const { host, sent } = fakeHost();
    const error = await rejection(
      host.sampling.createMessage({ messages, maxTokens: 50, responseFormat: responseFormat as never }),
    );
    expect(error.code).toBe(SamplingError.codes.INVALID_REQUEST);
    expect(error.message).toMatch(message);
    expect(error.data).toMatchObject({ reason: "invalid_response_format", ...data });
    expect(sent).toHaveLength(0);
  });

  it("a schema exactly at the limits goes out as given, with onUnsupported", async () => {
    const { host, sent } = fakeHost({
      respond: () => ({ role: "assistant", content: { type: "text", text: "{}" } }),
    });
    const atDepth = schemaFormat(nested(8), "n".repeat(64));
    await host.sampling.createMessage({
      messages,
      maxTokens: 50,
      responseFormat: atDepth,
      onUnsupported: "text",
    });
    await host.sampling.createMessage({ messages, maxTokens: 50, responseFormat: { type: "json_object" } });
    expect(sent[0]!.params).toMatchObject({ responseFormat: atDepth, onUnsupported: "text" });
    expect(sent[1]!.params.responseFormat).toEqual({ type: "json_object" });
  });

  it("an unknown onUnsupported fails locally", async () => {
    const { host, sent } = fakeHost();
    const error = await rejection(
      host.sampling.createMessage({ messages, maxTokens: 5, onUnsupported: "downgrade" as never }),
    );
    expect(error.message).toMatch(/onUnsupported must be "error", "json_object" or "text"/);
    expect(sent).toHaveLength(0);
  });
});

describe("the host's side of structured output", () => {
  it("-32010 is typed as UNSUPPORTED_RESPONSE_FORMAT", async () => {
    const { host } = fakeHost({
      respond: () => {
        throw new RpcError(-32010, "model lacks json_schema support", { model: "m-1" });
      },
    });
    const error = await rejection(
      host.sampling.createMessage({
        messages,
        maxTokens: 5,
        responseFormat: schemaFormat({ type: "object" }),
      }),
    );
    expect(error.isUnsupportedResponseFormat()).toBe(true);
    expect(error.code).toBe(SamplingError.codes.UNSUPPORTED_RESPONSE_FORMAT);
  });

  it("_meta.responseFormat and usage come back typed; totalTokens is filled in", async () => {
    const { host } = fakeHost({
      respond: () => ({
        role: "assistant",
        content: { type: "text", text: "{}" },
        usage: { inputTokens: 7, outputTokens: 9 },
        _meta: { responseFormat: { structuredValid: true, downgraded: true } },
      }),
    });
    const result = await host.sampling.createMessage({ messages, maxTokens: 5 });
    expect(result._meta?.responseFormat?.downgraded).toBe(true);
    expect(result._meta?.responseFormat?.structuredValid).toBe(true);
    expect(result.usage).toEqual({ inputTokens: 7, outputTokens: 9, totalTokens: 16 });
    expect(totalTokens({ usage: { inputTokens: 1, outputTokens: 2, totalTokens: 5 } })).toBe(5);
    expect(totalTokens({})).toBe(0);
  });
});

interface Summary {
  summary: string;
  sentiment: string;
}

/** A provider for one hand-made class: its schema, and a check of two fields. */
class SummaryShape implements Summary {
  summary = "";
  sentiment = "";
}
const summaryProvider: ObjectSchemaProvider = {
  supports: (target) => target === SummaryShape,
  schemaOf: (_target, { strict }) => ({
    name: "Summary Shape!",
    description: "A summary",
    schema: {
      type: "object",
      properties: { summary: { type: "string" }, sentiment: { enum: ["positive", "neutral", "negative"] } },
      required: ["summary", "sentiment"],
      additionalProperties: !strict,
    },
  }),
  async validate<T extends object>(target: abstract new () => T, value: unknown) {
    const v = value as Record<string, unknown>;
    const issues = [];
    if (typeof v?.summary !== "string") issues.push({ path: "summary", message: "must be a string" });
    if (!["positive", "neutral", "negative"].includes(v?.sentiment as string)) {
      issues.push({ path: "sentiment", message: "must be one of positive, neutral, negative" });
    }
    if (issues.length > 0) return { ok: false as const, issues };
    return { ok: true as const, value: Object.assign(new (target as unknown as new () => T)(), v) };
  },
};

function answer(text: string, report?: Record<string, unknown>) {
  return {
    role: "assistant",
    content: { type: "text", text },
    ...(report ? { _meta: { responseFormat: report } } : {}),
  };
}

describe("sampling.createObject", () => {
  let unregister: (() => void) | undefined;
  afterEach(() => {
    unregister?.();
    unregister = undefined;
  });

  it("without a provider, fails locally with a clear error", async () => {
    const { host, sent } = fakeHost();
    const error = await rejection(host.sampling.createObject(SummaryShape, { messages }));
    expect(error.code).toBe(SamplingError.codes.INVALID_REQUEST);
    expect(error.message).toMatch(/no schema provider is registered: import @executa\/decorators/);
    expect(sent).toHaveLength(0);
  });

  it("sends the provider's schema as json_schema and answers a validated instance", async () => {
    unregister = registerObjectSchemaProvider(summaryProvider);
    const { host, sent } = fakeHost({
      respond: () => answer('{"summary":"Blue sky.","sentiment":"neutral"}', { structuredValid: true }),
    });
    const created = await host.sampling.createObject(SummaryShape, { messages, temperature: 0 });
    expect(created.object).toBeInstanceOf(SummaryShape);
    expect(created.object).toEqual({ summary: "Blue sky.", sentiment: "neutral" });
    expect(created).toMatchObject({ attempts: 1, downgraded: false, structuredValid: true });
    expect(sent[0]!.params).toMatchObject({
      maxTokens: 1024,
      temperature: 0,
      responseFormat: {
        type: "json_schema",
        json_schema: { name: "Summary_Shape_", strict: true, schema: { description: "A summary" } },
      },
    });
  });

  it("retries once with the validation errors fed back, then answers", async () => {
    unregister = registerObjectSchemaProvider(summaryProvider);
    const replies = [
      answer('{"summary":"Blue sky.","sentiment":"calm"}'),
      answer('{"summary":"Blue sky.","sentiment":"positive"}'),
    ];
    const { host, sent } = fakeHost({ respond: () => replies.shift() });
    const created = await host.sampling.createObject(SummaryShape, { messages, retries: 1, name: "summary" });
    expect(created.attempts).toBe(2);
    expect(created.object.sentiment).toBe("positive");
    const second = sent[1]!.params.messages as { role: string; content: { text: string } }[];
    expect(second.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(second[1]!.content.text).toBe('{"summary":"Blue sky.","sentiment":"calm"}');
    expect(second[2]!.content.text).toContain("- sentiment: must be one of positive, neutral, negative");
    expect((sent[1]!.params.responseFormat as { json_schema: { name: string } }).json_schema.name).toBe(
      "summary",
    );
  });

  it("after its retries, rejects with StructuredOutputError naming the issues and the downgrade", async () => {
    unregister = registerObjectSchemaProvider(summaryProvider);
    const { host, sent } = fakeHost({
      respond: () => answer('{"summary": 3}', { structuredValid: false, downgraded: true }),
    });
    const error = (await rejection(
      host.sampling.createObject(SummaryShape, { messages, retries: 1, onUnsupported: "json_object" }),
    )) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.code).toBe(SamplingError.codes.PROVIDER_ERROR);
    expect(error.downgraded).toBe(true);
    expect(error.issues.map((issue) => issue.path)).toEqual(["summary", "sentiment"]);
    expect(error.data).toMatchObject({
      reason: "invalid_structured_output",
      failure: "schema_mismatch",
      structuredValid: false,
      attempts: 2,
      text: '{"summary": 3}',
    });
    expect(error.message).toMatch(/does not validate into SummaryShape \(the host downgraded the request/);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.params.onUnsupported).toBe("json_object");
  });

  it("an answer that is not JSON fails as not_json (no retry by default)", async () => {
    unregister = registerObjectSchemaProvider(summaryProvider);
    const { host, sent } = fakeHost({ respond: () => answer("Sure! The summary is: blue sky.") });
    const error = (await rejection(
      host.sampling.createObject(SummaryShape, { messages }),
    )) as StructuredOutputError;
    expect(error.data).toMatchObject({ failure: "not_json", attempts: 1, downgraded: false });
    expect(error.message).toMatch(/is not JSON/);
    expect(sent).toHaveLength(1);
  });

  it("rejects a bad retries value locally", async () => {
    unregister = registerObjectSchemaProvider(summaryProvider);
    const { host, sent } = fakeHost();
    const error = await rejection(host.sampling.createObject(SummaryShape, { messages, retries: 4 }));
    expect(error.message).toMatch(/retries must be an integer from 0 to 3/);
    expect(sent).toHaveLength(0);
  });

  it("parseJsonAnswer unwraps one fenced block", () => {
    expect(parseJsonAnswer('```json\n{"a":1}\n```')).toEqual({ a: 1 });
    expect(parseJsonAnswer(' {"a":2} ')).toEqual({ a: 2 });
    expect(() => parseJsonAnswer("")).toThrow(/empty/);
  });

  it("parseJsonAnswer finds the JSON after prose: one fenced block, else the outer object", () => {
    expect(parseJsonAnswer('Here it is:\n```json\n{"a":1}\n```\nDone.')).toEqual({ a: 1 });
    expect(parseJsonAnswer('Sure! {"a": {"b": 2}} Hope that helps.')).toEqual({ a: { b: 2 } });
    // Two fenced blocks are ambiguous; prose with stray braces is still not JSON.
    expect(() => parseJsonAnswer("```json\n[1]\n```\nor\n```json\n[2]\n```")).toThrow(/not JSON/);
    expect(() => parseJsonAnswer("use {curly} braces {sparingly}")).toThrow(/the answer is not JSON/);
  });
});
