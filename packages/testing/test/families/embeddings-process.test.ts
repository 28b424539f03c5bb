// The embeddings family (`llm.embed`): deterministic feature-hashing vectors from the local host.
import { EmbeddingsErrorCode } from "@executa/core";
import { describe, expect, it } from "vitest";
import { failed, MODES, ok, useProbe } from "./harness.js";

const start = useProbe();

const embed = (input: unknown, extra: Record<string, unknown> = {}) => ({
  op: "embeddings.create",
  input: { input, ...extra },
});

describe.each(MODES)("embeddings (%s)", (mode) => {
  it("embeds a string or a list into normalized vectors, similar texts nearer", async () => {
    const probe = await start(mode);
    const [one, list, similarity] = await probe.run(embed("solar panels"), embed(["a cat", "a dog"]), {
      op: "embeddings.similarity",
      input: { query: "solar panel prices", texts: ["prices of solar panels", "a recipe for soup"] },
    });
    const vector = ok(one).data[0].embedding as number[];
    expect(vector).toHaveLength(1536);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 6);
    expect(ok(one)).toMatchObject({
      object: "list",
      model: "anna-managed-v1",
      usage: { prompt_tokens: expect.any(Number) },
    });
    expect(ok(list).data.map((item: { index: number }) => item.index)).toEqual([0, 1]);
    const [near, far] = ok(similarity) as number[];
    expect(near!).toBeGreaterThan(far! + 0.2);
  });

  it("refuses empty input and unknown models with INVALID_REQUEST (-32504)", async () => {
    const probe = await start(mode);
    const [empty, emptyList, model] = await probe.run(
      embed(""),
      embed([]),
      embed("x", { model: "no-such-model" }),
    );
    failed(empty, EmbeddingsErrorCode.INVALID_REQUEST, "EmbeddingsError");
    failed(emptyList, EmbeddingsErrorCode.INVALID_REQUEST);
    failed(model, EmbeddingsErrorCode.INVALID_REQUEST, "EmbeddingsError");
  });

  it("caps tokens per input and per call with MAX_TOKENS (-32506), the pool with QUOTA_EXCEEDED (-32502)", async () => {
    const probe = await start(mode, {
      local: { embeddingsLimits: { maxTokensPerInput: 20, maxTokensPerRequest: 30, tokensQuota: 40 } },
    });
    const [longInput, longCall, fits, pool] = await probe.run(
      embed("word ".repeat(40)),
      embed(["word ".repeat(12), "word ".repeat(12), "word ".repeat(12)]),
      embed("word ".repeat(12)),
      embed(["word ".repeat(12), "word ".repeat(12)]),
    );
    failed(longInput, EmbeddingsErrorCode.MAX_TOKENS, "EmbeddingsError");
    failed(longCall, EmbeddingsErrorCode.MAX_TOKENS);
    ok(fits);
    failed(pool, EmbeddingsErrorCode.QUOTA_EXCEEDED, "EmbeddingsError");
  });

  it("answers from the tooling's fixture lines (llm.embed)", async () => {
    const probe = await start(mode, {
      fixtures: [
        {
          ns: "llm",
          method: "embed",
          result: {
            object: "list",
            model: "anna-managed-v1",
            data: [{ object: "embedding", index: 0, embedding: [0.1, -0.2, 0.3] }],
            usage: { prompt_tokens: 3, total_tokens: 3 },
          },
        },
      ],
    });
    const [fixture] = await probe.run(embed("anything"));
    expect(ok(fixture).data[0].embedding).toEqual([0.1, -0.2, 0.3]);
  });

  it("answers NOT_GRANTED (-32501) when not granted and NOT_NEGOTIATED (-32507) on a 1.1 host", async () => {
    const granted = await start(mode, { grantedCapabilities: ["llm.sample"] });
    failed((await granted.run(embed("x")))[0], EmbeddingsErrorCode.NOT_GRANTED, "EmbeddingsError");
    const old = await start(mode, { protocolVersion: "1.1" });
    failed((await old.run(embed("x")))[0], EmbeddingsErrorCode.NOT_NEGOTIATED, "EmbeddingsError");
  });
});
