// Chat messages of sampling/createMessage and agent/complete with a role outside
// user/assistant/system are refused before anything is sent, with INVALID_REQUEST
// naming the message.
import { AgentError, SamplingError } from "@executa/core";
import { describe, expect, it } from "vitest";
import { fakeHost } from "./helpers/fake-channel.js";

const badMessages: [string, unknown, RegExp][] = [
  [
    "an unknown role",
    { role: "bot", content: "hi" },
    /messages\[1\]\.role must be "user", "assistant" or "system", got "bot"/,
  ],
  ["no role", { content: "hi" }, /messages\[1\]\.role is required/],
  ["a null message", null, /messages\[1\] must be an object, got null/],
];

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
}

describe("message roles", () => {
  it.each(badMessages)(
    "sampling/createMessage refuses %s with -32004 and sends nothing",
    async (_label, bad, message) => {
      const { host, sent } = fakeHost();
      const messages = [{ role: "user", content: "hello" }, bad] as never;
      const error = await rejection(host.sampling.createMessage({ messages, maxTokens: 10 }));
      expect(error).toBeInstanceOf(SamplingError);
      expect((error as SamplingError).code).toBe(SamplingError.codes.INVALID_REQUEST);
      expect((error as SamplingError).message).toMatch(message);
      expect(sent).toHaveLength(0);
    },
  );

  it.each(badMessages)(
    "agent/complete refuses %s with INVALID_REQUEST and sends nothing",
    async (_label, bad, message) => {
      const { host, sent } = fakeHost();
      const messages = [{ role: "user", content: "hello" }, bad] as never;
      const error = await rejection(host.agent.complete({ messages }));
      expect(error).toBeInstanceOf(AgentError);
      expect((error as AgentError).code).toBe(AgentError.codes.INVALID_REQUEST);
      expect((error as AgentError).message).toMatch(message);
      expect(sent).toHaveLength(0);
    },
  );

  it("accepts each known role, a string content going out as text", async () => {
    const { host, sent } = fakeHost({
      respond: () => ({ role: "assistant", content: { type: "text", text: "ok" } }),
    });
    const messages = [
      { role: "system" as const, content: "be brief" },
      { role: "user" as const, content: "hello" },
      { role: "assistant" as const, content: { type: "text" as const, text: "hi" } },
    ];
    await host.sampling.createMessage({ messages, maxTokens: 10 });
    expect(sent[0]?.params).toMatchObject({
      messages: [
        { role: "system", content: { type: "text", text: "be brief" } },
        { role: "user", content: { type: "text", text: "hello" } },
        { role: "assistant", content: { type: "text", text: "hi" } },
      ],
    });
  });
});
