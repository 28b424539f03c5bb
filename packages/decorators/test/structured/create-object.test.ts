// ctx.host.sampling.createObject with class-validator DTOs: the JSON Schema comes from the
// converter that builds tool parameters, answers are bound by the same DTO binding, and the
// retry path feeds class-validator's messages back to the model. In process, on a fake
// reverse channel that plays the host.
import { createLogger, type InvokeContext, SamplingError, StructuredOutputError } from "@executa/core";
import { createInvokeContext } from "@executa/core/internal";
import { Field, Structured } from "@executa/decorators";
import { Type } from "class-transformer";
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateNested,
} from "class-validator";
import { describe, expect, test } from "vitest";

class Source {
  @IsString() title!: string;
  @IsOptional() @IsInt() @Min(1) page?: number;
}

@Structured({ name: "summary_analysis", description: "An analysis of a text" })
class SummaryDto {
  @IsString() @Field({ description: "One paragraph" }) summary!: string;
  @IsArray() @ArrayMaxSize(8) @IsString({ each: true }) keywords!: string[];
  @IsIn(["positive", "neutral", "negative"]) sentiment!: string;
  @IsInt() @Min(0) @Max(10) score: number = 5;
  @ValidateNested() @Type(() => Source) source!: Source;
}

class UndecoratedDto {
  /** What was said. */
  text = "";
}

class NoFieldsDto {
  private hidden = "";
  get value() {
    return this.hidden;
  }
}

interface Sent {
  method: string;
  params: Record<string, unknown>;
}

/** An invoke context whose host answers `sampling/createMessage` from `replies`, in order. */
function hostAnswering(replies: Record<string, unknown>[]): { ctx: InvokeContext; sent: Sent[] } {
  const sent: Sent[] = [];
  const ctx = createInvokeContext({
    tool: "summarize",
    invokeId: "inv-1",
    deadlineMs: Date.now() + 60_000,
    signal: new AbortController().signal,
    wire: { invoke_id: "inv-1" },
    declaredCredentials: [],
    log: createLogger("summarize", { write: () => {} }),
    channel: {
      request: async (method, params) => {
        sent.push({ method, params: params as Record<string, unknown> });
        const reply = replies.shift();
        if (!reply) throw new Error("no scripted reply left");
        return reply;
      },
      protocolVersion: () => "2.0",
      hostCapabilities: ["llm.sample"],
    },
  });
  return { ctx, sent };
}

function answer(value: unknown, report?: Record<string, unknown>) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return {
    role: "assistant",
    content: { type: "text", text },
    model: "m-1",
    ...(report ? { _meta: { responseFormat: report } } : {}),
  };
}

const messages = [{ role: "user" as const, content: "Analyse: the launch went well." }];
const good = {
  summary: "The launch went well.",
  keywords: ["launch"],
  sentiment: "positive",
  score: null,
  source: { title: "Blog", page: null },
};

describe("createObject from a class-validator DTO", () => {
  test("sends the DTO's strict JSON Schema, named and described by @Structured()", async () => {
    const { ctx, sent } = hostAnswering([answer(good)]);
    await ctx.host.sampling.createObject(SummaryDto, { messages });
    expect(sent[0]!.method).toBe("sampling/createMessage");
    expect(sent[0]!.params.responseFormat).toEqual({
      type: "json_schema",
      json_schema: {
        name: "summary_analysis",
        strict: true,
        schema: {
          type: "object",
          description: "An analysis of a text",
          properties: {
            summary: { type: "string", description: "One paragraph" },
            keywords: { type: "array", items: { type: "string" }, maxItems: 8 },
            sentiment: { type: "string", enum: ["positive", "neutral", "negative"] },
            score: { type: ["integer", "null"], minimum: 0, maximum: 10, description: "default 5" },
            source: {
              type: "object",
              properties: { title: { type: "string" }, page: { type: ["integer", "null"], minimum: 1 } },
              required: ["title", "page"],
              additionalProperties: false,
            },
          },
          required: ["summary", "keywords", "sentiment", "score", "source"],
          additionalProperties: false,
        },
      },
    });
  });

  test("strict: false lists only required properties and keeps defaults", async () => {
    const { ctx, sent } = hostAnswering([answer(good)]);
    await ctx.host.sampling.createObject(SummaryDto, { messages, strict: false, name: "loose" });
    const format = sent[0]!.params.responseFormat as { json_schema: { schema: Record<string, unknown> } };
    expect(format.json_schema.schema).toMatchObject({
      required: ["summary", "keywords", "sentiment", "source"],
      properties: { score: { type: "integer", default: 5 } },
    });
  });

  test("answers a validated SummaryDto instance; null optionals fall back to defaults", async () => {
    const { ctx } = hostAnswering([answer(good, { structuredValid: true, downgraded: false })]);
    const created = await ctx.host.sampling.createObject(SummaryDto, { messages });
    expect(created.object).toBeInstanceOf(SummaryDto);
    expect(created.object.source).toBeInstanceOf(Source);
    expect(created.object.score).toBe(5);
    expect(created.object.source.page).toBeUndefined();
    expect(created).toMatchObject({ attempts: 1, downgraded: false, structuredValid: true });
    expect(created.result.model).toBe("m-1");
  });

  test("retries: 1 feeds class-validator's messages back, then answers", async () => {
    const bad = { ...good, sentiment: "upbeat", source: { page: 2 } };
    const { ctx, sent } = hostAnswering([answer(bad), answer(good)]);
    const created = await ctx.host.sampling.createObject(SummaryDto, { messages, retries: 1 });
    expect(created.attempts).toBe(2);
    expect(created.object.sentiment).toBe("positive");
    const retry = sent[1]!.params.messages as { role: string; content: { text: string } }[];
    expect(retry.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(retry[2]!.content.text).toContain(
      "- sentiment: must be one of the following values: positive, neutral, negative",
    );
    expect(retry[2]!.content.text).toContain("- source.title: must be a string");
  });

  test("a host bound by the format is not sent the schema again in the retry", async () => {
    const bad = { ...good, sentiment: "upbeat" };
    const { ctx, sent } = hostAnswering([answer(bad, { downgraded: false }), answer(good)]);
    await ctx.host.sampling.createObject(SummaryDto, { messages, retries: 1 });
    const retry = sent[1]!.params.messages as { content: { text: string } }[];
    expect(retry.at(-1)!.content.text).not.toContain("JSON Schema");
    expect(sent[1]!.params.responseFormat).toEqual(sent[0]!.params.responseFormat);
  });

  test("a host that downgraded the request: the retry quotes the issues and the schema they are about", async () => {
    const bad = { ...good, sentiment: "upbeat" };
    const { ctx, sent } = hostAnswering([
      answer(bad, { structuredValid: false, downgraded: true }),
      answer(good, { downgraded: true }),
    ]);
    const created = await ctx.host.sampling.createObject(SummaryDto, { messages, retries: 1 });
    expect(created).toMatchObject({ attempts: 2, downgraded: true });
    const retry = sent[1]!.params.messages as { content: { text: string } }[];
    const text = retry.at(-1)!.content.text;
    expect(text).toContain("- sentiment: must be one of the following values: positive, neutral, negative");
    expect(text).toContain("Answer with a single JSON value that validates against this JSON Schema");
    const format = sent[0]!.params.responseFormat as { json_schema: { name: string; schema: unknown } };
    expect(text).toContain(
      `JSON Schema (${format.json_schema.name}):\n${JSON.stringify(format.json_schema.schema)}`,
    );
  });

  test("an answer outside the schema after the retries is a StructuredOutputError with the issues", async () => {
    const bad = { ...good, keywords: "launch", extra: true };
    const { ctx, sent } = hostAnswering([answer(bad, { structuredValid: false, downgraded: true })]);
    const error = (await ctx.host.sampling
      .createObject(SummaryDto, { messages, onUnsupported: "json_object" })
      .catch((e: unknown) => e)) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.code).toBe(-32003);
    expect(error.downgraded).toBe(true);
    expect(error.issues.map((issue) => issue.path)).toEqual(expect.arrayContaining(["keywords", "extra"]));
    expect(error.message).toMatch(/does not validate into SummaryDto \(the host downgraded the request/);
    expect(sent).toHaveLength(1);
  });

  test("a class without any decorator is read from the source (this file goes through the reader)", async () => {
    const { ctx, sent } = hostAnswering([answer({ text: "hi" })]);
    const { object } = await ctx.host.sampling.createObject(UndecoratedDto, { messages });
    expect(object).toBeInstanceOf(UndecoratedDto);
    expect(object.text).toBe("hi");
    expect(
      (sent[0]!.params.responseFormat as { json_schema: { schema: unknown } }).json_schema.schema,
    ).toEqual({
      type: "object",
      properties: { text: { type: ["string", "null"], description: 'What was said. (default "")' } },
      required: ["text"],
      additionalProperties: false,
    });
  });

  test("a class read without public fields fails with a clear message, sending nothing", async () => {
    const { ctx, sent } = hostAnswering([]);
    const error = (await ctx.host.sampling
      .createObject(NoFieldsDto, { messages })
      .catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(SamplingError);
    expect(error.message).toMatch(
      /the executa source reader read NoFieldsDto and found no public instance property/,
    );
    expect(error.message).not.toMatch(/decorate/);
    expect(sent).toHaveLength(0);
  });

  test("a DTO whose schema breaks the host's limits fails locally with -32004", async () => {
    const { ctx, sent } = hostAnswering([]);
    const error = (await ctx.host.sampling
      .createObject(SummaryDto, { messages, name: "not a valid name" })
      .catch((e: unknown) => e)) as SamplingError;
    expect(error).toBeInstanceOf(SamplingError);
    expect(error.code).toBe(-32004);
    expect(sent).toHaveLength(0);
  });
});
