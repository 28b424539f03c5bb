import { ANY_OBJECT, NON_EMPTY } from "./shared.js";

/** The embeddings family's method. */
export const EMBEDDINGS_METHODS = {
  "embeddings/create": {
    capability: "llm.embed",
    timeoutMs: 30_000,
    params: {
      type: "object",
      properties: {
        input: { anyOf: [NON_EMPTY, { type: "array", items: NON_EMPTY, minItems: 1 }] },
        model: { type: "string" },
      },
      required: ["input"],
    },
    result: {
      type: "object",
      properties: {
        object: { type: "string" },
        model: { type: "string" },
        data: {
          type: "array",
          items: {
            type: "object",
            properties: {
              index: { type: "integer" },
              embedding: { type: "array", items: { type: "number" } },
            },
          },
        },
        usage: {
          type: "object",
          properties: { prompt_tokens: { type: "integer" }, total_tokens: { type: "integer" } },
        },
        _meta: ANY_OBJECT,
      },
    },
  },
} as const;
