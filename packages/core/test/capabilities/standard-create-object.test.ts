// sampling.createObject with a Standard Schema target (zod 4): the response format comes
// from the schema's JSON Schema, the answer is checked by zod's own validate (a refinement
// JSON Schema cannot show included, fed back to the model on a retry) and answered as
// zod's output value. A plugin served in process over the in-memory transport pair, its
// reverse calls answered by a scripted host.
import {
  createLogger,
  createPluginServer,
  type InvokeContext,
  memoryTransportPair,
  type PluginDefinition,
} from "@executa/core";
import { FAMILY_GRANTS } from "@executa/core/internal";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { fakeHost } from "./helpers/fake-channel.js";
import { FakeHost, MAX_LINE_BYTES, type ReverseCall } from "./helpers/fake-host.js";

const Summary = z
  .object({
    summary: z.string().min(1).describe("One paragraph."),
    sentiment: z.enum(["positive", "neutral", "negative"]),
    keywords: z.array(z.string()).max(3).optional(),
    words: z.int().min(0),
  })
  .refine((answer) => answer.summary.split(" ").length === answer.words, {
    message: "words must count the summary's words",
    path: ["words"],
  })
  .transform((answer) => ({ ...answer, shout: answer.summary.toUpperCase() }));

const messages = [{ role: "user" as const, content: "Summarize: the sky is blue." }];

async function summarize(ctx: InvokeContext, retries: number) {
  const created = await ctx.host.sampling.createObject(Summary, { messages, retries });
  expectTypeOf(created.object).toEqualTypeOf<z.output<typeof Summary>>();
  return { object: created.object, attempts: created.attempts };
}

const definition: PluginDefinition = {
  manifest: {
    name: "standard-sampler",
    version: "1.0.0",
    description: "Asks the host for objects shaped by a zod schema.",
    host_capabilities: [...FAMILY_GRANTS],
    tools: [
      {
        name: "summarize",
        description: "Summarize through createObject.",
        parameters: [{ name: "retries", type: "integer" }],
      },
    ],
  },
  handlers: {
    summarize: async (args, ctx) => {
      try {
        return { ok: true, ...(await summarize(ctx, Number(args.retries ?? 0))) };
      } catch (error) {
        return {
          ok: false,
          name: (error as Error).name,
          message: (error as Error).message,
          data: (error as { data?: unknown }).data,
        };
      }
    },
  },
};

let host: FakeHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function startHost(): Promise<FakeHost> {
  const [hostEnd, pluginEnd] = memoryTransportPair({ maxLineBytes: MAX_LINE_BYTES }, {});
  const server = createPluginServer(definition, {
    transport: pluginEnd,
    log: createLogger("standard-sampler", { level: "error", write: () => {} }),
    ownProcess: false,
  });
  const exited = server.done.then(() => {
    pluginEnd.endOutput();
    return 0;
  });
  const started = new FakeHost({
    transport: hostEnd,
    exited,
    close: async () => {
      hostEnd.endOutput();
      await exited;
    },
  });
  await started.initialize("2.0");
  return started;
}

function answering(...texts: string[]) {
  return (call: ReverseCall) => {
    expect(call.method).toBe("sampling/createMessage");
    return { role: "assistant", content: { type: "text", text: texts.shift() }, model: "scripted" };
  };
}

describe("createObject with a zod schema", () => {
  it("sends the schema's JSON Schema as the response format and answers zod's output value", async () => {
    host = await startHost();
    host.responder = answering('{"summary":"Blue sky","sentiment":"neutral","keywords":null,"words":2}');
    const outcome = await host.outcome("summarize", { retries: 0 });
    expect(outcome).toEqual({
      ok: true,
      attempts: 1,
      object: { summary: "Blue sky", sentiment: "neutral", words: 2, shout: "BLUE SKY" },
    });
    expect(host.calls[0]!.params.responseFormat).toEqual({
      type: "json_schema",
      json_schema: {
        name: "object",
        strict: true,
        schema: {
          type: "object",
          properties: {
            // Strict mode takes no length bounds: said in the description.
            summary: { type: "string", description: "One paragraph. (at least 1 character)" },
            sentiment: { type: "string", enum: ["positive", "neutral", "negative"] },
            keywords: { type: ["array", "null"], items: { type: "string" }, maxItems: 3 },
            words: { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
          },
          required: ["summary", "sentiment", "keywords", "words"],
          additionalProperties: false,
        },
      },
    });
  });

  it("feeds a refinement's issue back to the model, then answers the corrected object", async () => {
    host = await startHost();
    host.responder = answering(
      '{"summary":"The sky is blue","sentiment":"neutral","words":3}',
      '{"summary":"The sky is blue","sentiment":"neutral","words":4}',
    );
    const outcome = await host.outcome("summarize", { retries: 1 });
    expect(outcome).toMatchObject({ ok: true, attempts: 2, object: { words: 4, shout: "THE SKY IS BLUE" } });
    const retry = host.calls[1]!.params.messages as { role: string; content: { text: string } }[];
    expect(retry.at(-1)!.content.text).toContain("- words: words must count the summary's words");
  });

  it("after its retries, fails naming the schema and zod's issues", async () => {
    host = await startHost();
    host.responder = answering('{"summary":"","sentiment":"calm","words":0}');
    const outcome = await host.outcome("summarize", { retries: 0 });
    expect(outcome).toMatchObject({
      ok: false,
      name: "StructuredOutputError",
      message: expect.stringMatching(/does not validate into the zod schema after 1 attempt/),
      data: { failure: "schema_mismatch", issues: [{ path: "summary" }, { path: "sentiment" }] },
    });
  });
});

describe("createObject with other Standard Schema targets", () => {
  const reply = (text: string) => ({ role: "assistant", content: { type: "text", text }, model: "scripted" });

  it("a valibot schema (toStandardJsonSchema): its title names the format, its output is answered", async () => {
    const Tag = toStandardJsonSchema(
      v.pipe(
        v.object({ tag: v.pipe(v.string(), v.maxLength(20)), weight: v.optional(v.number(), 1) }),
        v.title("tag"),
      ),
    );
    const { host, sent } = fakeHost({ respond: () => reply('{"tag":"sky","weight":null}') });
    const created = await host.sampling.createObject(Tag, { messages });
    expect(created.object).toEqual({ tag: "sky", weight: 1 });
    expect(sent[0]!.params.responseFormat).toMatchObject({ json_schema: { name: "tag", strict: true } });
  });

  it("a schema the subset cannot carry fails locally with -32004, naming the code, before any request", async () => {
    const { host, sent } = fakeHost({ respond: () => reply("{}") });
    const error = await host.sampling.createObject(z.object({ on: z.date() }), { messages }).then(
      () => undefined,
      (e: { code?: number; data?: unknown; message: string }) => e,
    );
    expect(error?.code).toBe(-32004);
    expect(error?.data).toEqual({ reason: "unreadable_schema", code: "CONVERSION_FAILED" });
    expect(error?.message).toMatch(/cannot read the JSON Schema of the zod schema: zod cannot write/);
    expect(sent).toHaveLength(0);
  });
});
