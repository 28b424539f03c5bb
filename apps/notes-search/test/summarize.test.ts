import { SamplingErrorCode } from "@executa/core";
import type { ReverseCall, ReverseProvider } from "@executa/host";
import { loadFixtures } from "@executa/host/local";
import {
  expectInvalidParams,
  expectSuccess,
  expectToolError,
  type PluginTestClient,
  runInProcess,
} from "@executa/testing";
import { afterEach, describe, expect, it } from "vitest";
import { NotesSearch } from "../src/notes-search.js";
import { INCIDENT, modelAnswer, RETROSPECTIVE, SUMMARY_FIXTURES } from "./helpers/samples.js";

// In-process: the class served by core over in-memory streams, driven by the host with
// its local providers; sampling answered from the app's mock fixtures first.

interface SummaryData {
  title: string;
  points: string[];
  sentiment: string;
  _display: { blocks: { type: string; text: string }[] };
}

let plugin: PluginTestClient | undefined;
afterEach(async () => {
  await plugin?.close();
  plugin = undefined;
});

async function start(options: Parameters<typeof runInProcess>[1] = {}): Promise<PluginTestClient> {
  plugin = await runInProcess(NotesSearch, { fixtures: SUMMARY_FIXTURES, ...options });
  return plugin;
}

const samplingCalls = (client: PluginTestClient) =>
  client.reverseCalls.filter((call) => call.method === "sampling/createMessage");

describe("summarize", () => {
  it("answers the model's summary as { title, points, sentiment } with a display block", async () => {
    const client = await start();
    const data = expectSuccess(await client.invoke<SummaryData>("summarize", { text: RETROSPECTIVE }));
    expect(data).toMatchObject({
      title: "Sprint 42 retrospective",
      points: [
        "The new search page shipped two days early.",
        "Flaky end-to-end tests cost about a day of reruns.",
        "The team will quarantine flaky tests and pair on reviews next sprint.",
      ],
      sentiment: "positive",
    });
    expect(data._display.blocks[0]?.text).toContain("**Sprint 42 retrospective**");
    expect(data._display.blocks[0]?.text).toContain("- The new search page shipped two days early.");
    expect(samplingCalls(client)).toHaveLength(1);

    const incident = expectSuccess(await client.invoke<SummaryData>("summarize", { text: INCIDENT }));
    expect(incident).toMatchObject({ title: "Checkout outage of 47 minutes", sentiment: "negative" });
  });

  it("keeps at most max_points points", async () => {
    const client = await start();
    const data = expectSuccess(
      await client.invoke<SummaryData>("summarize", { text: RETROSPECTIVE, max_points: 2 }),
    );
    expect(data.points).toEqual([
      "The new search page shipped two days early.",
      "Flaky end-to-end tests cost about a day of reruns.",
    ]);
  });

  it("asks for the summary's JSON Schema as the response format, with the text and max_points in the prompt", async () => {
    const requests: Record<string, unknown>[] = [];
    const sampling: ReverseProvider = {
      handle(call: ReverseCall) {
        requests.push(call.params);
        const answer = { title: "T", points: ["p"], sentiment: "neutral" };
        return { role: "assistant", content: { type: "text", text: JSON.stringify(answer) }, model: "m" };
      },
    };
    const client = await start({ fixtures: [], providers: { sampling } });
    expectSuccess(await client.invoke("summarize", { text: "Some text to summarize.", max_points: 3 }));
    expect(requests).toHaveLength(1);
    const request = requests[0] as {
      responseFormat: {
        type: string;
        json_schema: { name: string; strict: boolean; schema: Record<string, unknown> };
      };
      messages: { role: string; content: { text: string } }[];
      systemPrompt: string;
    };
    expect(request.responseFormat.type).toBe("json_schema");
    expect(request.responseFormat.json_schema.name).toBe("summary");
    const schema = request.responseFormat.json_schema.schema;
    expect(schema).toMatchObject({
      type: "object",
      required: ["title", "points", "sentiment"],
      additionalProperties: false,
      properties: {
        title: { type: "string" },
        points: { type: "array", items: { type: "string" } },
        sentiment: { type: "string", enum: ["positive", "neutral", "negative", "mixed"] },
      },
    });
    expect(request.messages).toHaveLength(1);
    expect(request.messages[0]?.content.text).toContain("at most 3 key points");
    expect(request.messages[0]?.content.text).toContain('"""\nSome text to summarize.\n"""');
    expect(request.systemPrompt).toContain('"sentiment"');
  });

  it("rejects empty or blank text and max_points out of 1-10 with -32602, before asking the model", async () => {
    const client = await start();
    await expectInvalidParams(client.invoke("summarize", { text: "" }), ["text"]);
    await expectInvalidParams(client.invoke("summarize", { text: "  \n " }), ["text"]);
    await expectInvalidParams(client.invoke("summarize", {}), ["text"]);
    await expectInvalidParams(client.invoke("summarize", { text: "x".repeat(20_001) }), ["text"]);
    for (const max_points of [0, 11, 2.5, -1]) {
      await expectInvalidParams(client.invoke("summarize", { text: "x", max_points }), ["max_points"]);
    }
    expect(client.reverseCalls).toHaveLength(0);
  });

  it("answers a clear tool error when the model answers prose instead of JSON, also on the retry", async () => {
    const client = await start({
      fixtures: [modelAnswer("The minutes", "Here is a summary: the meeting went well.")],
    });
    const result = await client.invoke("summarize", { text: "The minutes of Monday's meeting." });
    const error = expectToolError(result, /^summarize: the model's answer is not JSON after 2 attempts: /);
    expect(error).toContain("the answer is not JSON");
    expect(result).toMatchObject({ data: { code: SamplingErrorCode.PROVIDER_ERROR, failure: "not_json" } });
    expect(samplingCalls(client)).toHaveLength(2);
  });

  it("answers a clear tool error, naming the fields, when the model's JSON is outside the schema", async () => {
    const offSchema = JSON.stringify({ title: "Minutes", points: [], sentiment: "ecstatic" });
    const client = await start({ fixtures: [modelAnswer("The minutes", offSchema)] });
    const result = await client.invoke("summarize", { text: "The minutes of Monday's meeting." });
    const error = expectToolError(
      result,
      /^summarize: the model's answer does not fit the summary schema after 2 attempts: /,
    );
    expect(error).toMatch(/points: /);
    expect(error).toMatch(/sentiment: /);
    const data = (result as { data: { failure: string; issues: { path: string }[] } }).data;
    expect(data.failure).toBe("schema_mismatch");
    expect(data.issues.map((issue) => issue.path).sort()).toEqual(["points", "sentiment"]);
  });

  it("without a fixture line, takes the local echo model's answer built from the schema", async () => {
    const client = await start();
    const data = expectSuccess(
      await client.invoke<SummaryData>("summarize", { text: "A text no fixture knows.", max_points: 3 }),
    );
    // The echo model fills each property from the prompt and takes the first enum option.
    expect(data.sentiment).toBe("positive");
    expect(data.title).toMatch(/\S/);
    expect(data.points.length).toBeGreaterThanOrEqual(1);
    expect(data.points.length).toBeLessThanOrEqual(3);
    expect(samplingCalls(client)).toHaveLength(1);
  });

  it("takes the answer of the retry when the first one is outside the schema", async () => {
    const client = await start({
      fixtures: [
        // The retry carries the problems found; the first request does not.
        modelAnswer(
          "does not match the required JSON schema",
          JSON.stringify({ title: "Minutes", points: ["All agreed."], sentiment: "neutral" }),
        ),
        modelAnswer("The minutes", JSON.stringify({ title: "Minutes" })),
      ],
    });
    const data = expectSuccess(
      await client.invoke<SummaryData>("summarize", { text: "The minutes of Monday's meeting." }),
    );
    expect(data).toMatchObject({ title: "Minutes", points: ["All agreed."], sentiment: "neutral" });
    expect(samplingCalls(client)).toHaveLength(2);
  });

  it("says so when the user declines the sampling request", async () => {
    const client = await start();
    const result = await client.invoke("summarize", { text: "CONFIDENTIAL: salaries 2027" });
    expectToolError(result, "summarize: the user declined the sampling request");
    expect(result).toMatchObject({ data: { code: SamplingErrorCode.USER_DENIED } });
  });

  it("says so when the host does not grant sampling", async () => {
    const client = await start({ grantedCapabilities: ["llm.embed", "aps.kv"] });
    expectToolError(
      await client.invoke("summarize", { text: RETROSPECTIVE }),
      /^summarize: the host did not grant sampling \(llm\.sample\): /,
    );
  });

  it("ships fixtures that parse: two summaries and a declined request", () => {
    expect(loadFixtures(SUMMARY_FIXTURES).map((line) => `${line.ns}.${line.method}`)).toEqual([
      "llm.complete",
      "llm.complete",
      "llm.complete",
    ]);
  });
});
