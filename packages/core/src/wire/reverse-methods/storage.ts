import { ANY_REPLY, NON_EMPTY, SCOPE, STRING_OR_NULL } from "./shared.js";

/** A file's path; whether it is a valid one is the host's to say (-32027 INVALID_PATH). */
const FILE_PATH = { type: "string" } as const;

/** One entry of a `storage/list` or `files/list` page. */
const LIST_ITEM = {
  type: "object",
  properties: {
    key: { type: "string" },
    path: { type: "string" },
    kind: { type: "string" },
    etag: { type: "string" },
    size_bytes: { type: "number" },
    updated_at: { type: "string" },
  },
} as const;

/** A page of `storage/list` or `files/list`; hosts may omit an empty `items`. */
export const LIST_PAGE = {
  type: "object",
  properties: {
    items: { type: "array", items: LIST_ITEM },
    next_cursor: STRING_OR_NULL,
  },
} as const;

/** Params of `storage/list` and `files/list` (the former with `kind`). */
const LIST_PARAMS = {
  scope: SCOPE,
  prefix: { type: "string" },
  cursor: { type: "string" },
  limit: { type: "integer", minimum: 1 },
} as const;

/** `etag` and `size_bytes` of a write. */
const WRITE_RESULT = {
  type: "object",
  properties: {
    etag: { type: "string" },
    generation: { anyOf: [{ type: "integer" }, { type: "string" }] },
    size_bytes: { type: "integer" },
  },
} as const;

/** The storage family's methods. */
export const STORAGE_METHODS = {
  "storage/get": {
    capability: "aps.kv",
    timeoutMs: 30_000,
    params: { type: "object", properties: { key: NON_EMPTY, scope: SCOPE }, required: ["key", "scope"] },
    result: {
      type: "object",
      properties: { value: {}, etag: STRING_OR_NULL, exists: { type: "boolean" } },
    },
  },
  "storage/set": {
    capability: "aps.kv",
    timeoutMs: 30_000,
    params: {
      type: "object",
      properties: {
        key: NON_EMPTY,
        value: {},
        scope: SCOPE,
        if_match: { type: "string" },
        ttl_seconds: { type: "number", exclusiveMinimum: 0 },
      },
      required: ["key", "value", "scope"],
    },
    result: WRITE_RESULT,
  },
  "storage/delete": {
    capability: "aps.kv",
    timeoutMs: 30_000,
    params: {
      type: "object",
      properties: { key: NON_EMPTY, scope: SCOPE, if_match: { type: "string" } },
      required: ["key", "scope"],
    },
    result: ANY_REPLY,
  },
  "storage/list": {
    capability: "aps.kv",
    timeoutMs: 30_000,
    params: {
      type: "object",
      properties: { ...LIST_PARAMS, kind: { type: "string", enum: ["kv", "file"] } },
      required: ["scope"],
    },
    result: LIST_PAGE,
  },
} as const;

/** The files family's methods. */
export const FILES_METHODS = {
  "files/upload_begin": {
    capability: "aps.files",
    timeoutMs: 60_000,
    params: {
      type: "object",
      properties: {
        path: FILE_PATH,
        scope: SCOPE,
        size_bytes: { type: "integer", minimum: 0 },
        content_type: { type: "string" },
        metadata: { type: "object" },
      },
      required: ["path", "scope"],
    },
    result: {
      type: "object",
      properties: {
        upload_id: { type: "string" },
        put_url: { type: "string" },
        headers: { type: "object", additionalProperties: { type: "string" } },
        expires_at: { type: "string" },
      },
    },
  },
  "files/upload_complete": {
    capability: "aps.files",
    timeoutMs: 60_000,
    params: {
      type: "object",
      properties: {
        path: FILE_PATH,
        scope: SCOPE,
        etag: { type: "string" },
        size_bytes: { type: "integer", minimum: 0 },
        content_type: { type: "string" },
      },
      required: ["path", "scope"],
    },
    result: LIST_ITEM,
  },
  "files/download_url": {
    capability: "aps.files",
    timeoutMs: 30_000,
    params: {
      type: "object",
      properties: {
        path: FILE_PATH,
        scope: SCOPE,
        expires_in: { type: "number", exclusiveMinimum: 0 },
        ttl_seconds: { type: "number", exclusiveMinimum: 0 },
      },
      required: ["path", "scope"],
    },
    result: {
      type: "object",
      properties: { url: { type: "string" }, get_url: { type: "string" }, expires_at: { type: "string" } },
    },
  },
  "files/list": {
    capability: "aps.files",
    timeoutMs: 30_000,
    params: { type: "object", properties: LIST_PARAMS, required: ["scope"] },
    result: LIST_PAGE,
  },
  "files/delete": {
    capability: "aps.files",
    timeoutMs: 30_000,
    params: { type: "object", properties: { path: FILE_PATH, scope: SCOPE }, required: ["path", "scope"] },
    result: ANY_REPLY,
  },
} as const;
