// A reverse method's wire shape is written once, in its row of core's capability-family
// table: every local provider gets params that fit the row's params schema (others are
// refused with the family's INVALID_REQUEST, naming the field) and answers with a result
// that fits its result schema. The walk covers every method of the table; a method
// added without a fixture call here does not compile.
import { type ReverseMethod, type ReverseParams } from "@executa/core";
import { REVERSE_METHODS, shapeCheckOf } from "@executa/core/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalProviders, type LocalProviders } from "../../../src/local/create-local-providers.js";
import { tempDir } from "../../helpers/calls.js";
import { localRouter } from "../local-router.js";

// biome-ignore lint/suspicious/noExplicitAny: replies are read freely in the walk
type Replies = Partial<Record<ReverseMethod, Record<string, any>>>;

/** One call of each method, in an order where each can use the replies before it. */
const FIXTURE_CALLS: { [M in ReverseMethod]: (replies: Replies) => ReverseParams<M> } = {
  "sampling/createMessage": () => ({
    messages: [{ role: "user", content: { type: "text", text: "hi" } }],
    maxTokens: 16,
  }),
  "storage/set": () => ({ key: "k", value: { n: 1 }, scope: "tool", ttl_seconds: 60 }),
  "storage/get": () => ({ key: "k", scope: "tool" }),
  "storage/list": () => ({ scope: "tool", prefix: "k", limit: 10 }),
  "storage/delete": () => ({ key: "k", scope: "tool" }),
  "files/upload_begin": () => ({ path: "a.txt", scope: "tool", size_bytes: 2, content_type: "text/plain" }),
  "files/upload_complete": () => ({ path: "a.txt", scope: "tool", size_bytes: 2 }),
  "files/download_url": () => ({ path: "a.txt", scope: "tool", expires_in: 60 }),
  "files/list": () => ({ scope: "tool" }),
  "files/delete": () => ({ path: "a.txt", scope: "tool" }),
  "host/uploadFile": () => ({
    mode: "inline",
    filename: "a.txt",
    mime_type: "text/plain",
    content_b64: "aGk=",
  }),
  "image/generate": () => ({ prompt: "a lighthouse", n: 1, size: "64x64" }),
  "image/edit": (replies) => ({ image_url: replies["image/generate"]!.images[0].url, prompt: "at night" }),
  "embeddings/create": () => ({ input: ["one", "two"] }),
  "agent/session.create": () => ({ kind: "agent", agent_submode: "auto" }),
  "agent/session.run": (replies) => ({ app_session_uuid: uuid(replies), content: "hello" }),
  "agent/session.history": (replies) => ({ app_session_uuid: uuid(replies) }),
  "agent/session.cancel": (replies) => ({
    app_session_uuid: uuid(replies),
    run_id: replies["agent/session.run"]!.run_id,
  }),
  "agent/session.refresh": (replies) => ({ app_session_uuid: uuid(replies), ttl_seconds: 600 }),
  "agent/session.list": () => ({ limit: 5 }),
  "agent/session.delete": (replies) => ({ app_session_uuid: uuid(replies) }),
  "agent/complete": () => ({
    messages: [{ role: "user", content: { type: "text", text: "hi" } }],
    maxTokens: 16,
  }),
};

function uuid(replies: Replies): string {
  return replies["agent/session.create"]!.app_session_uuid;
}

describe("the local providers against the table's rows", () => {
  let dir: ReturnType<typeof tempDir>;
  let local: LocalProviders;
  let send: ReturnType<typeof localRouter>["send"];

  beforeAll(() => {
    dir = tempDir();
    local = createLocalProviders({ dataDir: dir.path, sampling: { mode: "echo" } });
    send = localRouter(local.providers).send;
  });

  afterAll(async () => {
    await local.close();
    dir.remove();
  });

  it("answer a fixture call of every method with a result that fits its result schema", async () => {
    const replies: Replies = {};
    const order = Object.keys(FIXTURE_CALLS) as ReverseMethod[];
    expect([...order].sort()).toEqual(REVERSE_METHODS.map((spec) => spec.method).sort());
    for (const method of order) {
      const spec = REVERSE_METHODS.find((row) => row.method === method)!;
      const params = (FIXTURE_CALLS[method] as (replies: Replies) => Record<string, unknown>)(replies);
      expect(shapeCheckOf(spec.params)(params), `${method} fixture params`).toBeUndefined();
      if (method === "files/upload_complete") await putBytes(replies["files/upload_begin"]!, "hi");
      const reply = await send(method, params);
      expect(shapeCheckOf(spec.result)(reply ?? {}), `${method} reply`).toBeUndefined();
      replies[method] = reply;
    }
    expect(replies["storage/get"]).toMatchObject({ exists: true, value: { n: 1 } });
    expect(replies["embeddings/create"]!.data).toHaveLength(2);
  });

  it("refuse params outside the row with the family's INVALID_REQUEST, naming the field", async () => {
    await expect(send("storage/list", { scope: "tool", limit: 0 })).rejects.toMatchObject({
      code: -32028,
      message: "storage/list: limit must be ≥ 1, got 0",
      data: { path: "limit" },
    });
    await expect(send("image/generate", { prompt: "p", n: "2" })).rejects.toMatchObject({
      code: -32104,
      data: { path: "n" },
    });
    await expect(
      send("host/uploadFile", { mode: "negotiate", filename: "a", mime_type: "text/plain" }),
    ).rejects.toMatchObject({
      code: -32203,
      message: "host/uploadFile: size_bytes is required",
    });
    await expect(
      send("sampling/createMessage", {
        messages: [{ role: "robot", content: { type: "text", text: "x" } }],
        maxTokens: 1,
      }),
    ).rejects.toMatchObject({ code: -32004, data: { path: "messages[0].role" } });
    // Still serving.
    await expect(send("storage/get", { key: "missing", scope: "tool" })).resolves.toMatchObject({
      exists: false,
    });
  });
});

async function putBytes(ticket: Record<string, unknown>, text: string): Promise<void> {
  const headers = ticket.headers as Record<string, string> | undefined;
  const response = await fetch(String(ticket.put_url), { method: "PUT", headers, body: text });
  expect(response.ok).toBe(true);
}
