import { ANY_OBJECT, NON_EMPTY } from "./shared.js";

/** What an upload is for; hosts may refuse a purpose (-32206). */
const PURPOSE = { type: "string", enum: ["image_input", "image_reference", "user_artifact"] } as const;

/** The upload family's method: one method, three modes. */
export const UPLOAD_METHODS = {
  "host/uploadFile": {
    capability: "host.upload",
    // The inline mode's; negotiate and confirm move less and take a shorter default.
    timeoutMs: 120_000,
    params: {
      anyOf: [
        {
          type: "object",
          properties: {
            mode: { type: "string", const: "inline" },
            filename: NON_EMPTY,
            mime_type: NON_EMPTY,
            content_b64: { type: "string" },
            purpose: PURPOSE,
            metadata: ANY_OBJECT,
          },
          required: ["mode", "filename", "mime_type", "content_b64"],
        },
        {
          type: "object",
          properties: {
            mode: { type: "string", const: "negotiate" },
            filename: NON_EMPTY,
            mime_type: NON_EMPTY,
            size_bytes: { type: "integer", minimum: 0 },
            purpose: PURPOSE,
            metadata: ANY_OBJECT,
          },
          required: ["mode", "filename", "mime_type", "size_bytes"],
        },
        {
          type: "object",
          properties: { mode: { type: "string", const: "confirm" }, r2_key: NON_EMPTY },
          required: ["mode", "r2_key"],
        },
      ],
    },
    // Negotiate answers `put_url`, `headers`, `r2_key`; inline and confirm the uploaded file.
    result: {
      type: "object",
      properties: {
        download_url: { type: "string" },
        r2_key: { type: "string" },
        expires_at: { type: "string" },
        size_bytes: { type: "integer" },
        put_url: { type: "string" },
        headers: { type: "object", additionalProperties: { type: "string" } },
      },
    },
  },
} as const;
