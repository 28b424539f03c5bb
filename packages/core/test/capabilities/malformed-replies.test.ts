// Host replies in the wrong shape surface as the family's typed error, with a message
// naming the bad field — not as a TypeError ("Cannot read properties of null") in tool code.
import type { CapabilityError } from "@executa/core";
import { MAX_REPLY_DEPTH } from "@executa/core";
import { describe, expect, it } from "vitest";
import { fakeHost } from "./helpers/fake-channel.js";

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = [value];
  return value;
};

async function rejection(promise: Promise<unknown>): Promise<CapabilityError> {
  try {
    await promise;
  } catch (error) {
    return error as CapabilityError;
  }
  throw new Error("expected a rejection, but it resolved");
}

describe("storage and files replies", () => {
  it("rejects storage/list items that are not objects or have a non-string key", async () => {
    const { host, state } = fakeHost();
    state.respond = () => ({ items: [{ key: 5 }, null, 3], next_cursor: null });
    const error = await rejection(host.storage.list());
    expect(error).toMatchObject({
      name: "StorageError",
      code: -32029,
      message: "storage/list: the host sent a malformed reply: items[0].key must be a string, got number",
      data: { method: "storage/list", reason: "malformed_reply", path: "items[0].key" },
    });
    expect(error.isMalformedReply()).toBe(true);

    state.respond = () => ({ items: [{ key: "a" }, null] });
    expect((await rejection(host.storage.list())).message).toContain("items[1] must be an object, got null");
  });

  it("rejects a files/list item that is a number", async () => {
    const { host, state } = fakeHost();
    state.respond = () => ({ items: [3] });
    const error = await rejection(host.files.list());
    expect(error).toMatchObject({
      name: "StorageError",
      code: -32029,
      data: { method: "files/list", path: "items[0]" },
    });
  });

  it(`rejects a storage/get value nested deeper than ${MAX_REPLY_DEPTH} levels, accepts one at the limit`, async () => {
    const { host, state } = fakeHost();
    state.respond = () => ({ value: nested(5_000), exists: true });
    const error = await rejection(host.storage.get("k"));
    expect(error).toMatchObject({ name: "StorageError", code: -32029 });
    expect(error.message).toContain(`nested deeper than ${MAX_REPLY_DEPTH} levels`);
    expect(error.isMalformedReply()).toBe(true);

    // The reply object is level 1 and `value` holds the rest.
    state.respond = () => ({ value: nested(MAX_REPLY_DEPTH - 1), exists: true });
    await expect(host.storage.get("k")).resolves.toMatchObject({ exists: true });
  });

  it("rejects a reply that is not an object", async () => {
    const { host, state } = fakeHost();
    for (const reply of [5, "ok", [1, 2], true]) {
      state.respond = () => reply;
      const error = await rejection(host.storage.set("k", 1));
      expect(error.code).toBe(-32029);
      expect(error.message).toMatch(
        /storage\/set: the host sent a malformed reply: the reply must be an object, got/,
      );
    }
  });

  it("passes well-formed replies through unchanged", async () => {
    const { host, state } = fakeHost();
    const items = [{ key: "a", etag: "e", size_bytes: 3 }, { key: "b" }];
    state.respond = () => ({ items, next_cursor: "c2" });
    await expect(host.storage.list()).resolves.toEqual({ items, next_cursor: "c2" });
    state.respond = () => null;
    await expect(host.storage.delete("k")).resolves.toEqual({});
  });
});

describe("other families", () => {
  it("sampling: content that is not an object is the family's PROVIDER_ERROR", async () => {
    const { host, state } = fakeHost();
    state.respond = () => ({ role: "assistant", content: "plain text" });
    const error = await rejection(
      host.sampling.createMessage({ messages: [{ role: "user", content: "hi" }], maxTokens: 5 }),
    );
    expect(error).toMatchObject({ name: "SamplingError", code: -32003, data: { path: "content" } });
    state.respond = () => ({ role: "assistant", content: { type: "text", text: 42 } });
    expect(
      (
        await rejection(
          host.sampling.createMessage({ messages: [{ role: "user", content: "hi" }], maxTokens: 5 }),
        )
      ).data,
    ).toMatchObject({ path: "content.text" });
  });

  it("embeddings: a null data item or a non-array embedding", async () => {
    const { host, state } = fakeHost();
    state.respond = () => ({ data: [null] });
    expect(await rejection(host.embeddings.create("t"))).toMatchObject({
      name: "EmbeddingsError",
      code: -32503,
    });
    state.respond = () => ({ data: [{ index: 0, embedding: "0.1,0.2" }] });
    expect((await rejection(host.embeddings.create("t"))).data).toMatchObject({ path: "data[0].embedding" });
  });

  it("image: an image whose url is not a string", async () => {
    const { host, state } = fakeHost();
    state.respond = () => ({ images: [{ url: 5 }] });
    expect(await rejection(host.image.generate({ prompt: "p" }))).toMatchObject({
      name: "ImageError",
      code: -32103,
      data: { path: "images[0].url" },
    });
  });

  it("agent: a frame that is not an object", async () => {
    const { host, state } = fakeHost();
    state.respond = () => ({ frames: [1] });
    expect(await rejection(host.agent.session.run("aps_1", "hi"))).toMatchObject({
      name: "AgentError",
      code: -32046,
      data: { path: "frames[0]" },
    });
  });
});
