// Concurrent invokes that each call the host, and the local negotiation and grant checks,
// on the wire.
import { afterEach, describe, expect, it } from "vitest";
import { type FakeHost, type ReverseCall, startHost } from "./helpers/fake-host.js";

let host: FakeHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const sample = (text: string) => ({
  path: "sampling.createMessage",
  args: [{ messages: [{ role: "user", content: text }], maxTokens: 10 }],
});

describe("concurrent invokes", () => {
  it("each reverse call carries its own invoke id and gets its own answer", async () => {
    host = await startHost();
    const held: ReverseCall[] = [];
    const release: (() => void)[] = [];
    host.responder = (call) =>
      new Promise((resolve) => {
        held.push(call);
        const asked = (call.params.messages as { content: { text: string } }[])[0]!.content.text;
        release.push(() =>
          resolve({
            role: "assistant",
            content: { type: "text", text: `answer for ${call.params.context?.invoke_id} (${asked})` },
          }),
        );
      });
    const ids = ["inv-a", "inv-b", "inv-c", "inv-d"];
    const outcomes = ids.map((id) => host!.outcome("host_call", sample(`from ${id}`), { invoke_id: id }));
    await host.until(() => held.length === ids.length, 10_000, "all four reverse calls");
    // All four are in flight at once; answer them in reverse order.
    for (const answer of release.reverse()) answer();
    const results = await Promise.all(outcomes);
    results.forEach((outcome, index) => {
      expect(outcome.ok).toBe(true);
      expect(outcome.result).toMatchObject({
        content: { text: `answer for ${ids[index]} (from ${ids[index]})` },
      });
    });
    const stamped = held.map((call) => call.params.context?.invoke_id).sort();
    expect(stamped).toEqual([...ids].sort());
    expect(new Set(held.map((call) => call.id)).size).toBe(ids.length);
  });
});

describe("negotiation", () => {
  it("a v1 host (no initialize) gets NOT_NEGOTIATED locally and nothing on the wire", async () => {
    host = await startHost({ version: null });
    const outcome = await host.outcome("host_call", sample("hi"), { invoke_id: "v1" });
    expect(outcome.error).toMatchObject({ name: "SamplingError", code: -32008, family: "sampling" });
    expect(outcome.error!.message).toMatch(/protocol 2\.0/);
    expect(host.reverseFrames).toEqual([]);
    expect(host.frames).toHaveLength(1); // only the invoke's answer
  });

  it("a host that offered 1.1 gets the families' NOT_NEGOTIATED (storage/agent: NOT_GRANTED)", async () => {
    host = await startHost({ version: "1.1" });
    const expectations: [string, unknown[], string, number][] = [
      ["image.generate", [{ prompt: "p" }], "ImageError", -32107],
      ["upload.confirm", ["k"], "UploadError", -32210],
      ["embeddings.create", ["text"], "EmbeddingsError", -32507],
      ["storage.get", ["k"], "StorageError", -32021],
      ["files.list", [], "StorageError", -32021],
      ["agent.session.list", [], "AgentError", -32041],
    ];
    for (const [path, args, name, code] of expectations) {
      const outcome = await host.outcome("host_call", { path, args }, { invoke_id: "old" });
      expect(outcome.error, path).toMatchObject({ name, code, data: { reason: "not_negotiated" } });
      expect(outcome.error!.message).toMatch(/did not negotiate/);
    }
    expect(host.reverseFrames).toEqual([]);
  });

  it("an undeclared capability gets NOT_GRANTED naming the entry to declare, and nothing on the wire", async () => {
    host = await startHost({ declared: ["aps.kv", "llm.image"] });
    const outcome = await host.outcome("host_call", sample("hi"), { invoke_id: "x" });
    expect(outcome.error).toMatchObject({
      name: "SamplingError",
      code: -32001,
      data: { capability: "llm.sample", reason: "not_declared" },
    });
    expect(outcome.error!.message).toContain('add "llm.sample" to host_capabilities');
    const edit = await host.outcome(
      "host_call",
      { path: "image.edit", args: [{ imageUrl: "https://i.test/a.png", prompt: "p" }] },
      { invoke_id: "y" },
    );
    expect(edit.error).toMatchObject({
      name: "ImageError",
      code: -32101,
      data: { capability: "llm.image.edit" },
    });
    expect(host.reverseFrames).toEqual([]);
  });

  it("declared capabilities become client_capabilities of the initialize answer", async () => {
    host = await startHost({ version: null });
    const answer = await host.initialize("2.0");
    expect(answer.protocolVersion).toBe("2.0");
    expect(answer.client_capabilities).toEqual({
      sampling: {},
      storage: { kv: true, files: true },
      upload: {},
      image: {},
      "image.edit": {},
      embeddings: {},
      agent: { submodes: ["auto"] },
    });
  });
});
