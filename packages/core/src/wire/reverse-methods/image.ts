import { ANY_OBJECT, MODEL_PREFERENCES, NON_EMPTY } from "./shared.js";

/** What `image/generate` and `image/edit` answer. */
const IMAGES = {
  type: "object",
  properties: {
    images: {
      type: "array",
      items: {
        type: "object",
        properties: {
          url: { type: "string" },
          mimeType: { type: "string" },
          width: { type: "integer" },
          height: { type: "integer" },
        },
      },
    },
    model: { type: "string" },
    quota_used: {},
  },
} as const;

/** The image family's methods. */
export const IMAGE_METHODS = {
  "image/generate": {
    capability: "llm.image",
    timeoutMs: 120_000,
    params: {
      type: "object",
      properties: {
        prompt: NON_EMPTY,
        n: { type: "integer", minimum: 1 },
        size: { type: "string" },
        reference_image_urls: { type: "array", items: { type: "string" } },
        modelPreferences: MODEL_PREFERENCES,
        metadata: ANY_OBJECT,
      },
      required: ["prompt"],
    },
    result: IMAGES,
  },
  "image/edit": {
    capability: "llm.image.edit",
    timeoutMs: 120_000,
    params: {
      type: "object",
      properties: {
        image_url: NON_EMPTY,
        prompt: NON_EMPTY,
        mask_url: { type: "string" },
        n: { type: "integer", minimum: 1 },
        size: { type: "string" },
        modelPreferences: MODEL_PREFERENCES,
        metadata: ANY_OBJECT,
      },
      required: ["image_url", "prompt"],
    },
    result: IMAGES,
  },
} as const;
