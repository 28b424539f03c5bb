// createObject with a class that carries no decorator, in a plugin where nothing plugged
// class-validator in (no @Args, @Field or @Structured in this file): the class is read
// from the facts the source reader recorded (this file goes through it) and answers are
// checked against them, then assigned to a new instance.
import { createLogger, type InvokeContext, StructuredOutputError } from "@executa/core";
import { createInvokeContext } from "@executa/core/internal";
import "@executa/decorators";
import { describe, expect, test } from "vitest";
import { dtoSupportEnabled } from "../../src/dto/dto-support.js";

class Mention {
  name!: string;
}

/** A summary of a text. */
class Summary {
  /** One line. */
  summary!: string;
  mentions: Mention[] = [];
  when?: Date;
}

function hostAnswering(replies: unknown[]): { ctx: InvokeContext; sent: Record<string, unknown>[] } {
  const sent: Record<string, unknown>[] = [];
  const ctx = createInvokeContext({
    tool: "summarize",
    invokeId: "inv-1",
    deadlineMs: Date.now() + 60_000,
    signal: new AbortController().signal,
    wire: { invoke_id: "inv-1" },
    declaredCredentials: [],
    log: createLogger("summarize", { write: () => {} }),
    channel: {
      request: async (_method, params) => {
        sent.push(params as Record<string, unknown>);
        const reply = replies.shift();
        if (reply === undefined) throw new Error("no scripted reply left");
        return { role: "assistant", content: { type: "text", text: JSON.stringify(reply) }, model: "m-1" };
      },
      protocolVersion: () => "2.0",
      hostCapabilities: ["llm.sample"],
    },
  });
  return { ctx, sent };
}

const messages = [{ role: "user" as const, content: "Summarize." }];

describe("createObject of an undecorated class without class-validator", () => {
  test("sends the schema read from the source and builds an instance from a valid answer", async () => {
    const { ctx, sent } = hostAnswering([
      { summary: "Fine.", mentions: [{ name: "Ada" }], when: "2026-03-01T10:30:00Z" },
    ]);
    const { object } = await ctx.host.sampling.createObject(Summary, { messages });
    expect(dtoSupportEnabled()).toBe(false);
    expect(object).toBeInstanceOf(Summary);
    expect(object.summary).toBe("Fine.");
    expect(object.mentions).toEqual([{ name: "Ada" }]);
    expect(object.when).toBeInstanceOf(Date);
    const format = sent[0]?.responseFormat as { json_schema: { schema: { required: string[] } } };
    expect(format.json_schema.schema.required).toEqual(["summary", "mentions", "when"]);
  });

  test("checks answers against the source's types, nested ones included", async () => {
    const { ctx } = hostAnswering([{ summary: 5, mentions: [{ name: 1 }], when: null }]);
    const error = (await ctx.host.sampling
      .createObject(Summary, { messages })
      .catch((e: unknown) => e)) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.issues.map((issue) => issue.path)).toEqual(["summary", "mentions.0.name"]);
  });
});
