import { createHash } from "node:crypto";
import { expectInvalidParams, expectSuccess, type PluginTestClient, runInProcess } from "@executa/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Toolbox } from "../src/toolbox.js";

// In-process: the class served by core over in-memory streams, driven by the host.

let plugin: PluginTestClient;
beforeAll(async () => {
  plugin = await runInProcess(Toolbox, { localProviders: false });
});
afterAll(() => plugin?.close());

const hex = (algorithm: string, text: string) => createHash(algorithm).update(text, "utf8").digest("hex");

describe("manifest", () => {
  it("has the reference's tools, parameter names, types and defaults", () => {
    const tools = plugin.manifest!.tools;
    expect(tools.map((tool) => tool.name)).toEqual([
      "json_format",
      "base64_encode",
      "base64_decode",
      "hash_text",
      "batch_hash",
      "generate_dataset",
    ]);
    const params = Object.fromEntries(
      tools.map((tool) => [
        tool.name,
        (tool.parameters ?? []).map(({ name, type, required, default: fallback }) => ({
          name,
          type,
          required,
          ...(fallback === undefined ? {} : { default: fallback }),
        })),
      ]),
    );
    expect(params).toEqual({
      json_format: [
        { name: "json_string", type: "string", required: true },
        { name: "indent", type: "integer", required: false, default: 2 },
      ],
      base64_encode: [{ name: "text", type: "string", required: true }],
      base64_decode: [{ name: "encoded", type: "string", required: true }],
      hash_text: [
        { name: "text", type: "string", required: true },
        { name: "algorithm", type: "string", required: false, default: "sha256" },
      ],
      batch_hash: [
        { name: "texts", type: "array", required: true },
        { name: "algorithm", type: "string", required: false, default: "sha256" },
      ],
      generate_dataset: [
        { name: "rows", type: "integer", required: false, default: 100 },
        { name: "columns", type: "array", required: false },
      ],
    });
    const hashText = tools.find((tool) => tool.name === "hash_text")!;
    expect(hashText.parameters?.[1]?.enum).toEqual(["sha256", "md5", "sha1", "sha512"]);
  });
});

describe("json_format", () => {
  it("formats with the default indent of 2 and a given one", async () => {
    expect(
      expectSuccess(await plugin.invoke("json_format", { json_string: '{"a":[1,{"b":null}]}' })),
    ).toEqual({
      formatted: '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ]\n}',
      valid: true,
    });
    expect(expectSuccess(await plugin.invoke("json_format", { json_string: "[1]", indent: 4 }))).toEqual({
      formatted: "[\n    1\n]",
      valid: true,
    });
  });

  it("answers invalid JSON with valid: false and the parser's message", async () => {
    const data = expectSuccess(await plugin.invoke("json_format", { json_string: "{bad" }));
    expect(data).toEqual({ error: expect.stringMatching(/^Invalid JSON: .+/), valid: false });
  });
});

describe("base64", () => {
  it("round-trips UTF-8 text with the reference's length fields", async () => {
    const text = "héllo 👋";
    const encoded = expectSuccess(await plugin.invoke<{ encoded: string }>("base64_encode", { text }));
    expect(encoded).toEqual({ encoded: Buffer.from(text).toString("base64"), original_length: text.length });
    const decoded = expectSuccess(await plugin.invoke("base64_decode", { encoded: encoded.encoded }));
    expect(decoded).toEqual({ decoded: text, encoded_length: encoded.encoded.length });
  });
});

describe("hashing", () => {
  it("hashes with sha256 by default and with every supported algorithm", async () => {
    expect(expectSuccess(await plugin.invoke("hash_text", { text: "héllo" }))).toEqual({
      hash: hex("sha256", "héllo"),
      algorithm: "sha256",
      input_length: 5,
    });
    for (const algorithm of ["md5", "sha1", "sha512"]) {
      const data = expectSuccess(
        await plugin.invoke<{ hash: string }>("hash_text", { text: "x", algorithm }),
      );
      expect(data.hash).toBe(hex(algorithm, "x"));
    }
  });

  it("rejects an unsupported algorithm as invalid params (the reference answers success with an error field)", async () => {
    const issues = await expectInvalidParams(plugin.invoke("hash_text", { text: "x", algorithm: "sha3" }), [
      "algorithm",
    ]);
    expect(issues[0]?.message).toContain('"sha256", "md5", "sha1", "sha512"');
    await expectInvalidParams(plugin.invoke("batch_hash", { texts: ["x"], algorithm: "crc32" }), [
      "algorithm",
    ]);
  });

  it("batch-hashes with 50-character previews", async () => {
    const long = "y".repeat(80);
    const data = expectSuccess(await plugin.invoke("batch_hash", { texts: [long, "b"], algorithm: "md5" }));
    expect(data).toEqual({
      count: 2,
      results: [
        { text_preview: "y".repeat(50), hash: hex("md5", long), algorithm: "md5" },
        { text_preview: "b", hash: hex("md5", "b"), algorithm: "md5" },
      ],
    });
    expect(expectSuccess(await plugin.invoke("batch_hash", { texts: [] }))).toEqual({
      count: 0,
      results: [],
    });
  });

  it("requires texts", async () => {
    await expectInvalidParams(plugin.invoke("batch_hash", {}), ["texts"]);
  });
});

describe("generate_dataset", () => {
  it("defaults to 100 rows of id, name, email, score", async () => {
    const data = expectSuccess(
      await plugin.invoke<{ rows: number; columns: string[]; dataset: unknown[] }>("generate_dataset"),
    );
    expect(data.rows).toBe(100);
    expect(data.columns).toEqual(["id", "name", "email", "score"]);
    expect(data.dataset[0]).toEqual({
      id: 1,
      name: "Diana Smith",
      email: "grace.williams@example.com",
      score: 37.57,
    });
  });

  it("rejects a row count that is not an integer", async () => {
    await expectInvalidParams(plugin.invoke("generate_dataset", { rows: 2.5 }), ["rows"]);
  });
});

describe("health", () => {
  it('answers ready (the reference answers the non-spec status "healthy")', async () => {
    const health = await plugin.health();
    expect(health.status).toBe("ready");
    expect(health.details).toEqual({ version: "1.0.0", tools_count: 6 });
  });
});
