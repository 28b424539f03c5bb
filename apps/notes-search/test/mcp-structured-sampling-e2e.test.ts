import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";

// The built binary as an MCP server, under the official SDK client, whose sampling
// handler answers like a model that no format binds: prose first, and the JSON only once
// the request it reads carries the schema and, on the retry, the problems found.
const binary = fileURLToPath(new URL("../dist/notes-search", import.meta.url));

const SUMMARY = { title: "Sprint 42", points: ["We shipped the search page early."], sentiment: "positive" };

interface Seen {
  systemPrompt: string;
  lastUser: string;
}

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function connect(answer: (seen: Seen, turn: number) => string): Promise<Seen[]> {
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run \`pnpm build\` first`);
  const seen: Seen[] = [];
  client = new Client({ name: "model-like", version: "1.0.0" }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    const messages = request.params.messages;
    const content = messages[messages.length - 1]?.content;
    const block = Array.isArray(content) ? content[0] : content;
    const lastUser = block?.type === "text" ? block.text : "";
    const turn = { systemPrompt: request.params.systemPrompt ?? "", lastUser };
    seen.push(turn);
    return {
      role: "assistant",
      content: { type: "text", text: answer(turn, seen.length) },
      model: "model-like",
      stopReason: "endTurn",
    };
  });
  await client.connect(new StdioClientTransport({ command: binary, args: ["--mcp"], stderr: "pipe" }));
  return seen;
}

describe("createObject under MCP (the client has no structured output)", () => {
  it("sends the schema in the request, reports the retry's issues against it, and succeeds on the retry", async () => {
    // Prose at first; JSON once the request shows the schema and says what was wrong.
    const seen = await connect((turn, n) =>
      n > 1 && turn.systemPrompt.includes("JSON Schema") && turn.lastUser.includes("does not match")
        ? JSON.stringify(SUMMARY)
        : "Here is a summary: the team shipped early and felt good.",
    );
    const result = await client!.callTool({
      name: "summarize",
      arguments: { text: "Sprint 42 retrospective: we shipped the search page early." },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ title: "Sprint 42", sentiment: "positive" });
    expect(seen).toHaveLength(2);
    // The first request already carries the schema and the JSON-only instruction.
    expect(seen[0]!.systemPrompt).toMatch(
      /Answer with a single JSON value that validates against this JSON Schema/,
    );
    expect(seen[0]!.systemPrompt).toContain('"sentiment"');
    expect(seen[0]!.systemPrompt).toContain('"positive","neutral","negative","mixed"');
    // The retry quotes what was wrong and restates the schema it is about.
    expect(seen[1]!.lastUser).toMatch(
      /Your answer does not match the required JSON schema:\n- \(answer\): the answer is not JSON/,
    );
    expect(seen[1]!.lastUser).toContain("JSON Schema (summary):");
  });

  it("fails saying the model was not bound to the schema (downgraded), after the retries", async () => {
    await connect(() => "I would rather talk about the weather.");
    const result = await client!.callTool({
      name: "summarize",
      arguments: { text: "Sprint 42 retrospective: we shipped the search page early." },
    });
    expect(result.isError).toBe(true);
    const text = (result.content as { type: string; text: string }[]).map((block) => block.text).join("\n");
    expect(text).toMatch(/is not JSON after 2 attempts \(the host could not bind its model to the schema\)/);
  });
});
