import { ANY_OBJECT, COMPLETION, COMPLETION_REQUEST, NON_EMPTY, STRING_OR_NULL } from "./shared.js";

/** What hosts answer about a session (`agent/session.create`, and each listed session). */
const SESSION_INFO = {
  type: "object",
  properties: {
    app_session_uuid: NON_EMPTY,
    expires_in: { type: "number" },
    kind: { type: "string" },
    agent_submode: STRING_OR_NULL,
    fixed_client_id: STRING_OR_NULL,
    granted_tools: { type: "array", items: { type: "string" } },
    inherit_host_tools: { type: "boolean" },
  },
} as const;

/** Params naming one session. */
const SESSION = {
  type: "object",
  properties: { app_session_uuid: NON_EMPTY },
  required: ["app_session_uuid"],
} as const;

/** The lifecycle calls' answers: free-form data about the session. */
const LIFECYCLE = { type: "object" } as const;

/** The agent family's methods. */
export const AGENT_METHODS = {
  "agent/session.create": {
    capability: "llm.agent.auto",
    timeoutMs: 30_000,
    params: {
      type: "object",
      properties: {
        kind: { type: "string" },
        agent_submode: { type: "string" },
        fixed_client_id: { type: "string" },
        label: { type: "string" },
        quota_caps: ANY_OBJECT,
        system_prompt: { type: "string" },
        ttl_seconds: { type: "number", exclusiveMinimum: 0 },
      },
    },
    result: { ...SESSION_INFO, required: ["app_session_uuid"] },
  },
  "agent/session.run": {
    capability: "llm.agent.auto",
    timeoutMs: 300_000,
    params: {
      type: "object",
      properties: {
        app_session_uuid: NON_EMPTY,
        content: NON_EMPTY,
        attachments: { type: "array" },
        recursion_limit: { type: "integer", minimum: 1 },
        run_id: { type: "string" },
        systemPrompt: { type: "string" },
      },
      required: ["app_session_uuid", "content"],
    },
    result: {
      type: "object",
      properties: {
        run_id: { type: "string" },
        stream_id: { type: "string" },
        frames: { type: "array", items: { type: "object" } },
        final: {},
      },
    },
  },
  "agent/session.cancel": {
    capability: "llm.agent.auto",
    timeoutMs: 60_000,
    params: {
      type: "object",
      properties: { app_session_uuid: NON_EMPTY, run_id: { type: "string" } },
      required: ["app_session_uuid"],
    },
    result: LIFECYCLE,
  },
  "agent/session.history": {
    capability: "llm.agent.auto",
    timeoutMs: 60_000,
    params: SESSION,
    result: {
      type: "object",
      properties: {
        messages: {
          type: "array",
          items: { type: "object", properties: { role: { type: "string" } } },
        },
      },
    },
  },
  "agent/session.delete": {
    capability: "llm.agent.auto",
    timeoutMs: 60_000,
    params: SESSION,
    result: LIFECYCLE,
  },
  "agent/session.list": {
    capability: "llm.agent.auto",
    timeoutMs: 15_000,
    params: {
      type: "object",
      properties: { include_expired: { type: "boolean" }, limit: { type: "integer", minimum: 1 } },
    },
    result: { type: "object", properties: { sessions: { type: "array", items: SESSION_INFO } } },
  },
  "agent/session.refresh": {
    capability: "llm.agent.auto",
    timeoutMs: 15_000,
    params: {
      type: "object",
      properties: { app_session_uuid: NON_EMPTY, ttl_seconds: { type: "number", exclusiveMinimum: 0 } },
      required: ["app_session_uuid"],
    },
    result: { ...SESSION_INFO },
  },
  "agent/complete": {
    capability: "llm.agent.auto",
    timeoutMs: 120_000,
    params: {
      type: "object",
      properties: COMPLETION_REQUEST,
      required: ["messages"],
    },
    result: COMPLETION,
  },
} as const;
