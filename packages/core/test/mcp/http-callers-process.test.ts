import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { answerOf, postMessage, type RawAnswer, type Served, serveHttpFixture } from "./http-harness.js";

// Several callers of one `--mcp-http` process in the 2026-07-28 era, which has no session:
// official v2 clients (each numbering its request ids from 0, so the ids collide) and raw
// requests with deliberately equal ids. Each call, its requestState, its input rounds and
// its cancellation belong to the caller that made it.
const MODERN = "2026-07-28";
const running: Served[] = [];

afterEach(async () => {
  for (const served of running.splice(0)) await served.kill();
});

async function serve(): Promise<Served> {
  const served = await serveHttpFixture();
  running.push(served);
  return served;
}

/** A raw modern-era `tools/call` POST: the `_meta` envelope and the headers the HTTP binding requires. */
function modernCall(
  url: string,
  id: number,
  name: string,
  params: Record<string, unknown> = {},
  capabilities: object = { sampling: {} },
): Promise<RawAnswer> {
  return postMessage(
    url,
    { jsonrpc: "2.0", id, method: "tools/call", params: { name, ...params, _meta: envelope(capabilities) } },
    { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name },
  );
}

/** The `_meta` envelope of a raw modern-era request declaring `capabilities`. */
function envelope(capabilities: object): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  };
}

interface InputRound {
  requestState: string;
  inputRequests: Record<string, { method: string; params: { messages: { content: { text: string } }[] } }>;
}

/** The input_required round a raw answer carries. */
function roundOf(answer: RawAnswer): InputRound {
  const { result } = answerOf(answer) as { result: InputRound & { resultType: string } };
  expect(result.resultType).toBe("input_required");
  return result;
}

/** The texts a round asks the client's model about. */
const askedTexts = (round: InputRound) =>
  Object.values(round.inputRequests).flatMap((ask) => ask.params.messages.map((m) => m.content.text));

/** Answers every ask of a round with `reply(<its text>)`. */
function replies(round: InputRound): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(round.inputRequests).map(([key, ask]) => [
      key,
      {
        role: "assistant",
        content: { type: "text", text: `reply(${ask.params.messages[0]?.content.text})` },
        model: "m",
      },
    ]),
  );
}

/** An official v2 client pinned to the modern era, recording its request ids and what its model was asked. */
async function officialClient(url: string, answer: (text: string) => Promise<string> | string) {
  const ids: unknown[] = [];
  const asked: string[] = [];
  const client = new Client(
    { name: "callers-test", version: "1.0.0" },
    { capabilities: { sampling: {} }, versionNegotiation: { mode: { pin: MODERN } } },
  );
  client.setRequestHandler("sampling/createMessage", async (request) => {
    const text = String((request.params.messages[0]?.content as { text?: string } | undefined)?.text);
    asked.push(text);
    return {
      role: "assistant",
      content: { type: "text", text: await answer(text) },
      model: "m",
      stopReason: "endTurn",
    };
  });
  const recording: typeof fetch = (input, init) => {
    const body =
      typeof init?.body === "string" ? (JSON.parse(init.body) as { id?: unknown; method?: string }) : {};
    if (body.method === "tools/call") ids.push(body.id);
    return fetch(input, init);
  };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: recording }));
  expect(client.getProtocolEra()).toBe("modern");
  return { client, ids, asked };
}

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("callers of the 2026-07-28 era over HTTP are kept apart", () => {
  it("two official v2 clients with colliding ids: each one's input rounds carry its own text only", async () => {
    const served = await serve();
    const [firstOfA, firstOfB] = [gate(), gate()];
    const release = gate();
    const a = await officialClient(served.url, async (text) => {
      firstOfA.open();
      await release.opened;
      return `reply(${text})`;
    });
    const b = await officialClient(served.url, async (text) => {
      firstOfB.open();
      await release.opened;
      return `reply(${text})`;
    });
    try {
      const options = { timeout: 15_000 };
      const callOfA = a.client.callTool({ name: "summarize", arguments: { text: "A-secret" } }, options);
      await firstOfA.opened;
      const callOfB = b.client.callTool({ name: "summarize", arguments: { text: "B-secret" } }, options);
      await firstOfB.opened;
      release.open();
      const [resultOfA, resultOfB] = await Promise.all([callOfA, callOfB]);
      // The ids did collide: both clients numbered their calls alike.
      expect(a.ids.slice(0, 1)).toEqual(b.ids.slice(0, 1));
      expect(a.asked).toEqual(["Summarize: A-secret", "Shorten: reply(Summarize: A-secret)"]);
      expect(b.asked).toEqual(["Summarize: B-secret", "Shorten: reply(Summarize: B-secret)"]);
      expect(resultOfA.structuredContent).toEqual({ summary: "reply(Shorten: reply(Summarize: A-secret))" });
      expect(resultOfB.structuredContent).toEqual({ summary: "reply(Shorten: reply(Summarize: B-secret))" });
    } finally {
      await Promise.all([a.client.close(), b.client.close()]);
    }
  }, 30_000);

  it("raw calls with the same id get their own requestState, rounds and results", async () => {
    const served = await serve();
    const firstOfA = roundOf(
      await modernCall(served.url, 5, "summarize", { arguments: { text: "A-secret" } }),
    );
    const firstOfB = roundOf(
      await modernCall(served.url, 5, "summarize", { arguments: { text: "B-secret" } }),
    );
    expect(firstOfA.requestState).not.toBe(firstOfB.requestState);
    expect(askedTexts(firstOfA)).toEqual(["Summarize: A-secret"]);
    expect(askedTexts(firstOfB)).toEqual(["Summarize: B-secret"]);
    const resume = (round: InputRound, text: string) =>
      modernCall(served.url, 6, "summarize", {
        arguments: { text },
        requestState: round.requestState,
        inputResponses: replies(round),
      });
    // A goes first: its tool's next ask must come back to A, not wait in B's call.
    const secondOfA = roundOf(await resume(firstOfA, "A-secret"));
    expect(askedTexts(secondOfA)).toEqual(["Shorten: reply(Summarize: A-secret)"]);
    const secondOfB = roundOf(await resume(firstOfB, "B-secret"));
    expect(askedTexts(secondOfB)).toEqual(["Shorten: reply(Summarize: B-secret)"]);
    const doneOfB = answerOf(await resume(secondOfB, "B-secret")) as {
      result: { structuredContent: unknown };
    };
    const doneOfA = answerOf(await resume(secondOfA, "A-secret")) as {
      result: { structuredContent: unknown };
    };
    expect(doneOfA.result.structuredContent).toEqual({
      summary: "reply(Shorten: reply(Summarize: A-secret))",
    });
    expect(doneOfB.result.structuredContent).toEqual({
      summary: "reply(Shorten: reply(Summarize: B-secret))",
    });
  }, 30_000);

  it("refuses a forged, replayed or moved requestState with -32602 saying which, and serves on", async () => {
    const served = await serve();
    const first = roundOf(await modernCall(served.url, 1, "summarize", { arguments: { text: "t" } }));
    const state = first.requestState;
    const refusal = async (name: string, requestState: string) => {
      const answer = answerOf(
        await modernCall(served.url, 2, name, {
          arguments: {},
          requestState,
          inputResponses: replies(first),
        }),
      ) as { id: unknown; error: { code: number; message: string } };
      expect(answer.id).toBe(2);
      expect(answer.error.code).toBe(-32602);
      return answer.error.message;
    };
    const flipped = `${state.slice(0, -1)}${state.endsWith("A") ? "B" : "A"}`;
    expect(await refusal("summarize", flipped)).toMatch(/not issued by this server for tool "summarize"/);
    expect(await refusal("summarize", "mcp-1.1.made-up")).toMatch(/not issued by this server/);
    // A genuine state is good for its own tool only.
    expect(await refusal("ask_model", state)).toMatch(/not issued by this server for tool "ask_model"/);
    const second = roundOf(
      await modernCall(served.url, 3, "summarize", {
        arguments: { text: "t" },
        requestState: state,
        inputResponses: replies(first),
      }),
    );
    expect(askedTexts(second)).toEqual(["Shorten: reply(Summarize: t)"]);
    // Used once: a replay of the same state resumes nothing.
    expect(await refusal("summarize", state)).toMatch(/used already/);
    const done = answerOf(
      await modernCall(served.url, 4, "summarize", {
        arguments: { text: "t" },
        requestState: second.requestState,
        inputResponses: replies(second),
      }),
    ) as { result: { structuredContent: unknown } };
    expect(done.result.structuredContent).toEqual({ summary: "reply(Shorten: reply(Summarize: t))" });
  }, 30_000);

  it("a call's tool is held to its own caller's capabilities, not to those of the latest request", async () => {
    const served = await serve();
    const withoutSampling = modernCall(served.url, 3, "ask_later", { arguments: { ms: 1500 } }, {});
    await served.waitFor("ask_later waiting");
    const other = await postMessage(
      served.url,
      { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: envelope({ sampling: {} }) } },
      { "mcp-protocol-version": MODERN, "mcp-method": "tools/list" },
    );
    expect(other.status).toBe(200);
    const answer = await withoutSampling;
    expect(answer.body).not.toContain("input_required");
    expect(answer.body).toContain("the MCP client did not declare the sampling capability");
  }, 30_000);

  it("a raw notifications/cancelled naming another caller's id cancels nothing", async () => {
    const served = await serve();
    const callOfA = modernCall(served.url, 9, "wait", { arguments: { ms: 1000 } });
    await served.waitFor("wait started");
    const cancel = await postMessage(served.url, {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: {
        requestId: 9,
        _meta: { "io.modelcontextprotocol/protocolVersion": MODERN },
      },
    });
    expect(cancel.status).toBe(202);
    const answer = await callOfA;
    expect(answer.status).toBe(200);
    expect(answerOf(answer)).toMatchObject({ id: 9, result: { structuredContent: { waited: 1000 } } });
    expect(served.stderr()).not.toContain("wait aborted");
  }, 30_000);

  it("an official v2 client aborting its call ends only its own call, not another's with the same id", async () => {
    const served = await serve();
    const a = await officialClient(served.url, () => "unused");
    const b = await officialClient(served.url, () => "unused");
    try {
      const abortOfB = new AbortController();
      const callOfB = b.client.callTool(
        { name: "wait", arguments: { ms: 20_000 } },
        { signal: abortOfB.signal },
      );
      await served.waitFor("wait started");
      const callOfA = a.client.callTool({ name: "wait", arguments: { ms: 1000 } });
      await served.waitFor("wait started", 2);
      expect(a.ids).toEqual(b.ids);
      abortOfB.abort();
      await expect(callOfB).rejects.toThrow();
      expect((await callOfA).structuredContent).toEqual({ waited: 1000 });
      await served.waitFor("wait aborted");
      expect(served.stderr().split("wait aborted").length - 1).toBe(1);
    } finally {
      await Promise.all([a.client.close(), b.client.close()]);
    }
  }, 30_000);
});
