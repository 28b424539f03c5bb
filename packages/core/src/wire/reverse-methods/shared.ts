/** Schema pieces several reverse methods share (protocol-v2-notes: "Reverse RPC"). */

/** `scope` of `storage/*` and `files/*`: whose data. */
export const SCOPE = {
  type: "string",
  enum: ["user", "app", "tool"],
  description: "Whose data: the user's, the app's, or this tool's own.",
} as const;

/** A text that must not be empty (a key, a path, a prompt, a session uuid). */
export const NON_EMPTY = { type: "string", minLength: 1 } as const;

/** Any JSON object (`metadata`, `quota_caps`, …). */
export const ANY_OBJECT = { type: "object" } as const;

/** A string, or null where hosts send null for "none". */
export const STRING_OR_NULL = { anyOf: [{ type: "string" }, { type: "null" }] } as const;

/** `modelPreferences`, in MCP's shape. */
export const MODEL_PREFERENCES = {
  type: "object",
  properties: {
    hints: {
      type: "array",
      items: { type: "object", properties: { name: { type: "string" } } },
    },
    costPriority: { type: "number" },
    speedPriority: { type: "number" },
    intelligencePriority: { type: "number" },
  },
} as const;

/** Chat messages of `sampling/createMessage` and `agent/complete`. */
export const MESSAGES = {
  type: "array",
  minItems: 1,
  items: {
    type: "object",
    properties: {
      role: { type: "string", enum: ["user", "assistant", "system"] },
      content: {
        type: "object",
        properties: { type: { type: "string", const: "text" }, text: { type: "string" } },
        required: ["type", "text"],
      },
    },
    required: ["role", "content"],
  },
} as const;

/** The request fields `sampling/createMessage` and `agent/complete` share: the conversation and its limits. */
export const COMPLETION_REQUEST = {
  messages: MESSAGES,
  maxTokens: { type: "integer", exclusiveMinimum: 0 },
  systemPrompt: { type: "string" },
  temperature: { type: "number" },
} as const;

/** A completion's answer: `sampling/createMessage` and `agent/complete`. */
export const COMPLETION = {
  type: "object",
  properties: {
    role: { type: "string" },
    content: {
      type: "object",
      properties: { type: { type: "string" }, text: { type: "string" } },
    },
    model: { type: "string" },
    stopReason: STRING_OR_NULL,
    usage: {
      type: "object",
      properties: { inputTokens: { type: "number" }, outputTokens: { type: "number" } },
    },
    _meta: ANY_OBJECT,
  },
} as const;

/** An empty answer (`storage/delete`, `files/delete`): hosts may add fields or send null. */
export const ANY_REPLY = { type: "object" } as const;
