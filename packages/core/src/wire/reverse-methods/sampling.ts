import { ANY_OBJECT, COMPLETION, COMPLETION_REQUEST, MODEL_PREFERENCES } from "./shared.js";

/** `responseFormat` of `sampling/createMessage`. */
const RESPONSE_FORMAT = {
  anyOf: [
    { type: "object", properties: { type: { type: "string", const: "json_object" } }, required: ["type"] },
    {
      type: "object",
      properties: {
        type: { type: "string", const: "json_schema" },
        json_schema: {
          type: "object",
          properties: { name: { type: "string" }, strict: { type: "boolean" }, schema: ANY_OBJECT },
          required: ["name", "schema"],
        },
      },
      required: ["type", "json_schema"],
    },
  ],
} as const;

/** The sampling family's methods. */
export const SAMPLING_METHODS = {
  "sampling/createMessage": {
    capability: "llm.sample",
    timeoutMs: 90_000,
    params: {
      type: "object",
      properties: {
        ...COMPLETION_REQUEST,
        stopSequences: { type: "array", items: { type: "string" } },
        modelPreferences: MODEL_PREFERENCES,
        includeContext: { type: "string", const: "none" },
        metadata: ANY_OBJECT,
        responseFormat: RESPONSE_FORMAT,
        onUnsupported: { type: "string", enum: ["error", "json_object", "text"] },
      },
      required: ["messages", "maxTokens"],
    },
    result: COMPLETION,
  },
} as const;
