// Each reverse method's wire shape is written once, in its row of the capability-family
// table: the clients check what they send and what they get back against it.
import { REVERSE_FAMILIES, type ReverseParams, type ReverseResult } from "@executa/core";
import { REVERSE_METHODS, shapeCheckOf } from "@executa/core/internal";
import { describe, expect, expectTypeOf, it } from "vitest";
import { fakeHost } from "../capabilities/helpers/fake-channel.js";

describe("the table's method rows", () => {
  it("give every method of every family a capability, a timeout and object schemas for params and result", () => {
    const listed = REVERSE_FAMILIES.flatMap((family) => Object.keys(family.methods));
    expect(REVERSE_METHODS.map((spec) => spec.method)).toEqual(listed);
    for (const spec of REVERSE_METHODS) {
      expect(spec.timeoutMs, spec.method).toBeGreaterThan(0);
      expect(
        spec.family.grants.map((grant) => grant.capability),
        spec.method,
      ).toContain(spec.capability);
      // Compiles, and accepts no non-object.
      expect(shapeCheckOf(spec.params)("text"), spec.method).toBeDefined();
      expect(shapeCheckOf(spec.result)([1]), spec.method).toBeDefined();
    }
  });

  it("type each method's params and result from its schemas", () => {
    expectTypeOf<ReverseParams<"storage/get">>().toEqualTypeOf<{
      key: string;
      scope: "user" | "app" | "tool";
    }>();
    expectTypeOf<ReverseResult<"storage/set">>().toEqualTypeOf<{
      etag?: string;
      generation?: number | string;
      size_bytes?: number;
    }>();
    expectTypeOf<ReverseParams<"host/uploadFile">["mode"]>().toEqualTypeOf<
      "inline" | "negotiate" | "confirm"
    >();
  });
});

describe("the clients against the rows", () => {
  it("refuse params outside the method's schema before sending, naming the field", async () => {
    const { host, sent } = fakeHost();
    await expect(host.storage.list({ limit: 0 })).rejects.toMatchObject({
      name: "StorageError",
      code: -32028,
      message: "storage/list: limit must be ≥ 1, got 0",
      data: { method: "storage/list", path: "limit" },
    });
    await expect(
      host.sampling.createMessage({
        messages: [{ role: "user", content: "hi" }],
        maxTokens: 5,
        stopSequences: [7 as never],
      }),
    ).rejects.toMatchObject({ code: -32004, data: { path: "stopSequences[0]" } });
    expect(sent).toHaveLength(0);
  });

  it("refuse a reply outside the method's result schema with the family's malformed-reply code", async () => {
    const { host, state } = fakeHost();
    state.respond = () => ({ etag: 5 });
    await expect(host.storage.set("k", 1)).rejects.toMatchObject({
      code: -32029,
      message: "storage/set: the host sent a malformed reply: etag must be a string, got number",
    });
    state.respond = () => ({ expires_in: 60 });
    await expect(host.agent.session.create()).rejects.toMatchObject({
      name: "AgentError",
      code: -32046,
      data: { path: "app_session_uuid", reason: "malformed_reply" },
    });
    state.respond = () => ({ download_url: "u", r2_key: "k", size_bytes: "12" });
    await expect(host.upload.confirm("k")).rejects.toMatchObject({
      code: -32207,
      data: { path: "size_bytes" },
    });
  });
});
