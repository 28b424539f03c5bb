import { fileURLToPath } from "node:url";
import { SamplingErrorCode } from "@executa/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { SamplingRequest, SamplingResponder } from "../../src/local/sampling/request.js";
import { SamplingProvider } from "../../src/local/sampling/sampling-provider.js";
import type { StructuredFormat } from "../../src/local/sampling/structured-output.js";
import { type PluginProcess, spawnPlugin } from "../../src/process/plugin-process.js";

// sampling.createObject in a real plugin process (core's built output), answered by a
// model that sees only what reaches it: over Executa through the local host's sampling
// provider (a model with or without structured output), and over MCP through the
// official SDK client. The model answers JSON only when the format binds it, or when the
// request's text shows the schema.
const PLUGIN = fileURLToPath(new URL("./structured-object-plugin.mjs", import.meta.url));
const SCHEMA_TEXT = JSON.stringify({
  type: "object",
  properties: {
    verdict: { type: "string", enum: ["yes", "no"] },
    score: { type: "integer", minimum: 1 },
  },
  required: ["verdict", "score"],
  additionalProperties: false,
});
const INSTRUCTION = "Answer with a single JSON value that validates against this JSON Schema";
const GOOD = JSON.stringify({ verdict: "yes", score: 3 });
const PROSE = "I believe the claim holds, mostly.";

/** What one request showed the model. */
interface Seen {
  /** The format the model was bound to, if any. */
  bound: string | undefined;
  systemPrompt: string;
  /** Every message's text, in order. */
  texts: string[];
}

type Answer = (seen: Seen, turn: number) => string;

const showsSchema = (seen: Seen) =>
  [seen.systemPrompt, ...seen.texts].some((text) => text.includes(INSTRUCTION) && text.includes(SCHEMA_TEXT));
const lastText = (seen: Seen) => seen.texts.at(-1) ?? "";

/** A model behind the local host: JSON when bound or shown the schema, else prose. */
function modelLike(
  formats: StructuredFormat[],
  answer?: Answer,
): { responder: SamplingResponder; seen: Seen[] } {
  const seen: Seen[] = [];
  const responder: SamplingResponder = {
    name: "model-like",
    responseFormats: formats,
    respond: async (request: SamplingRequest) => {
      const turn: Seen = {
        bound: request.responseFormat?.type,
        systemPrompt: request.systemPrompt ?? "",
        texts: request.messages.map((message) => message.text),
      };
      seen.push(turn);
      const fallback = turn.bound === "json_schema" || showsSchema(turn) ? GOOD : PROSE;
      return { text: answer?.(turn, seen.length) ?? fallback, model: "model-like", stopReason: "endTurn" };
    },
  };
  return { responder, seen };
}

let plugin: PluginProcess | undefined;
let client: Client | undefined;
afterEach(async () => {
  if (plugin?.running) await plugin.stop({ graceMs: 500 });
  plugin = undefined;
  await client?.close();
  client = undefined;
});

// biome-ignore lint/suspicious/noExplicitAny: the tool's answer is inspected freely
async function judge(responder: SamplingResponder, args: Record<string, unknown> = {}): Promise<any> {
  plugin = await spawnPlugin({
    command: process.execPath,
    args: [PLUGIN],
    providers: { sampling: new SamplingProvider(responder) },
  });
  await plugin.start();
  const result = await plugin.invoke("judge", { claim: "water is wet", ...args });
  expect(result.success).toBe(true);
  return result.data;
}

describe("createObject over Executa, answered by the local host's model", () => {
  it("a host with structured output: the schema travels in responseFormat only, not downgraded", async () => {
    const { responder, seen } = modelLike(["json_object", "json_schema"]);
    const data = await judge(responder);
    expect(data).toEqual({
      object: { verdict: "yes", score: 3 },
      isInstance: true,
      downgraded: false,
      attempts: 1,
      structuredValid: true,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.bound).toBe("json_schema");
    expect(seen[0]!.systemPrompt).toBe("You judge claims.");
    expect(seen[0]!.texts).toEqual(["Is this true? water is wet"]);
  });

  it('a host with no structured output and onUnsupported "text": the schema is in the prompt, downgraded', async () => {
    const { responder, seen } = modelLike([]);
    const data = await judge(responder, { onUnsupported: "text" });
    expect(data).toMatchObject({ object: { verdict: "yes", score: 3 }, downgraded: true, attempts: 1 });
    expect(seen[0]!.bound).toBeUndefined();
    expect(seen[0]!.systemPrompt).toBe(
      `You judge claims.\n\n${INSTRUCTION}, and nothing else: no prose, no code fence.\nJSON Schema (verdict):\n${SCHEMA_TEXT}`,
    );
  });

  it("a downgraded retry quotes each issue and restates the schema the issues are about", async () => {
    const { responder, seen } = modelLike(["json_object"], (turn, n) =>
      n === 1 ? '{"verdict": "maybe", "score": 0}' : showsSchema(turn) ? GOOD : PROSE,
    );
    const data = await judge(responder, { onUnsupported: "json_object", retries: 1 });
    expect(data).toMatchObject({ object: { verdict: "yes" }, downgraded: true, attempts: 2 });
    expect(seen.map((turn) => turn.bound)).toEqual(["json_object", "json_object"]);
    const retry = lastText(seen[1]!);
    expect(retry).toContain(
      "Your answer does not match the required JSON schema:\n" +
        "- verdict: must be yes or no\n- score: must be an integer of at least 1\n",
    );
    expect(retry).toContain(`JSON Schema (verdict):\n${SCHEMA_TEXT}`);
    expect(seen[1]!.texts.at(-2)).toBe('{"verdict": "maybe", "score": 0}');
  });

  it("prose after the retries is -32003 StructuredOutputError, saying truthfully it was downgraded", async () => {
    const { responder } = modelLike([], () => PROSE);
    const { failed } = await judge(responder, { onUnsupported: "text", retries: 1 });
    expect(failed).toMatchObject({
      name: "StructuredOutputError",
      code: SamplingErrorCode.PROVIDER_ERROR,
      data: { failure: "not_json", downgraded: true, attempts: 2, text: PROSE },
    });
    expect(failed.message).toMatch(/the host downgraded the request/);
  });

  it("a host with no structured output and no onUnsupported: -32010 naming the fix", async () => {
    const { responder, seen } = modelLike([]);
    const { failed } = await judge(responder);
    expect(failed.code).toBe(SamplingErrorCode.UNSUPPORTED_RESPONSE_FORMAT);
    expect(failed.message).toMatch(/Fix: pass onUnsupported: "text"/);
    expect(seen).toHaveLength(0);
  });
});

/** The plugin served over MCP, under an SDK client whose sampling handler acts as a model. */
async function judgeOverMcp(answer: Answer, args: Record<string, unknown> = {}) {
  const seen: Seen[] = [];
  client = new Client({ name: "model-like", version: "1.0.0" }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    const texts = request.params.messages.map((message) => {
      const block = Array.isArray(message.content) ? message.content[0] : message.content;
      return block?.type === "text" ? block.text : "";
    });
    const turn: Seen = { bound: undefined, systemPrompt: request.params.systemPrompt ?? "", texts };
    seen.push(turn);
    return {
      role: "assistant",
      content: { type: "text", text: answer(turn, seen.length) },
      model: "model-like",
      stopReason: "endTurn",
    };
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [PLUGIN, "--mcp"],
    stderr: "pipe",
  });
  await client.connect(transport);
  const result = await client.callTool({ name: "judge", arguments: { claim: "water is wet", ...args } });
  return { result, seen };
}

describe("createObject over MCP, whose client has no structured output", () => {
  it("sends the schema to the client, retries with the issues, and succeeds downgraded on the 2nd attempt", async () => {
    // Prose first; JSON once the request shows the schema and says what was wrong.
    const { result, seen } = await judgeOverMcp(
      (turn, n) => (n > 1 && showsSchema(turn) && lastText(turn).includes("does not match") ? GOOD : PROSE),
      { retries: 1 },
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      object: { verdict: "yes", score: 3 },
      isInstance: true,
      downgraded: true,
      attempts: 2,
    });
    expect(seen).toHaveLength(2);
    expect(seen[0]!.systemPrompt).toContain(`You judge claims.\n\n${INSTRUCTION}`);
    expect(seen[0]!.systemPrompt).toContain(SCHEMA_TEXT);
    expect(lastText(seen[1]!)).toMatch(
      /^Your answer does not match the required JSON schema:\n- \(answer\): the answer is not JSON/,
    );
    expect(lastText(seen[1]!)).toContain(`JSON Schema (verdict):\n${SCHEMA_TEXT}`);
  });

  it("accepts JSON after a line of prose", async () => {
    const { result } = await judgeOverMcp(() => `Sure, here it is:\n\`\`\`json\n${GOOD}\n\`\`\``);
    expect(result.structuredContent).toMatchObject({ attempts: 1, downgraded: true });
  });

  it('with onUnsupported "text" the system prompt carries the schema once', async () => {
    const { result, seen } = await judgeOverMcp((turn) => (showsSchema(turn) ? GOOD : PROSE), {
      onUnsupported: "text",
    });
    expect(result.structuredContent).toMatchObject({ attempts: 1, downgraded: true });
    expect(seen[0]!.systemPrompt.split(INSTRUCTION)).toHaveLength(2);
  });

  it("prose after the retries fails with -32003 and downgraded: true", async () => {
    const { result } = await judgeOverMcp(() => PROSE, { retries: 1 });
    expect(result.structuredContent).toMatchObject({
      failed: { code: SamplingErrorCode.PROVIDER_ERROR, data: { downgraded: true, attempts: 2 } },
    });
  });
});
