import { EmbeddingsErrorCode } from "@executa/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalProviders, type LocalProviders } from "../../src/local/create-local-providers.js";
import { expectRpcError, tempDir } from "../helpers/calls.js";
import { localRouter } from "./local-router.js";

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);
const norm = (a: number[]) => Math.hypot(...a);

describe("EmbeddingsProvider through the reverse router", () => {
  let dir: ReturnType<typeof tempDir>;
  let local: LocalProviders;
  let send: ReturnType<typeof localRouter>["send"];

  beforeEach(() => {
    dir = tempDir();
    local = createLocalProviders({
      dataDir: dir.path,
      sampling: { mode: "echo" },
      embeddingsLimits: { maxInputs: 4, maxTokensPerInput: 50, maxTokensPerRequest: 80, tokensQuota: 120 },
    });
    send = localRouter(local.providers).send;
  });
  afterEach(async () => {
    await local.close();
    dir.remove();
  });

  it("answers a string input with one normalized 1536-dimension vector in the reference shape", async () => {
    const result = await send("embeddings/create", { input: "hello world" });
    expect(result).toMatchObject({
      object: "list",
      model: "anna-managed-v1",
      usage: { prompt_tokens: 3, total_tokens: 3 },
      _meta: { alias: "anna-managed-v1", dimensions: 1536 },
    });
    expect(result.data).toHaveLength(1);
    expect(result.data[0]).toMatchObject({ object: "embedding", index: 0 });
    expect(result.data[0].embedding).toHaveLength(1536);
    expect(norm(result.data[0].embedding)).toBeCloseTo(1, 10);
  });

  it("is deterministic, honours dimensions, and puts similar texts nearer than unrelated ones", async () => {
    const texts = [
      "The cat sat on the warm mat",
      "A cat was sitting on the mat",
      "Quarterly revenue grew by twelve percent",
    ];
    const result = await send("embeddings/create", { input: texts, dimensions: 256 });
    const [cat, cat2, revenue] = result.data.map((d: { embedding: number[] }) => d.embedding);
    expect(result.data.map((d: { index: number }) => d.index)).toEqual([0, 1, 2]);
    expect(cat).toHaveLength(256);
    expect(cosine(cat, cat2)).toBeGreaterThan(cosine(cat, revenue) + 0.3);
    expect(cosine(cat, cat2)).toBeGreaterThan(cosine(cat2, revenue) + 0.3);
    const again = await send("embeddings/create", { input: texts[0], dimensions: 256 });
    expect(again.data[0].embedding).toEqual(cat);
  });

  it("rejects bad input with -32504", async () => {
    for (const params of [
      {},
      { input: "" },
      { input: "   " },
      { input: [] },
      { input: ["ok", 3] },
      { input: ["a", "b", "c", "d", "e"] },
      { input: "x", model: "gpt-unknown" },
      { input: "x", dimensions: 0 },
    ]) {
      await expectRpcError(() => send("embeddings/create", params), EmbeddingsErrorCode.INVALID_REQUEST);
    }
  });

  it("enforces max tokens per input and per call (-32506) and the token pool (-32502)", async () => {
    const long = "x".repeat(204); // 51 tokens
    const perInput = await expectRpcError(
      () => send("embeddings/create", { input: ["ok", long] }),
      EmbeddingsErrorCode.MAX_TOKENS,
    );
    expect(perInput.data).toMatchObject({ index: 1, tokens: 51, max_tokens: 50 });
    const forty = "y".repeat(160);
    await expectRpcError(
      () => send("embeddings/create", { input: [forty, forty, "zzzz"] }),
      EmbeddingsErrorCode.MAX_TOKENS,
    );
    await send("embeddings/create", { input: [forty, forty] });
    await send("embeddings/create", { input: [forty] });
    const pool = await expectRpcError(
      () => send("embeddings/create", { input: "four" }),
      EmbeddingsErrorCode.QUOTA_EXCEEDED,
    );
    expect(pool.data).toEqual({ tokens_used: 120, tokens_quota: 120 });
  });
});
