import { JsonRpcErrorCode, RpcError, StorageErrorCode } from "@executa/core";
import type { ReverseCall, ReverseProvider } from "../providers/provider.js";
import { type Clock, systemClock } from "./clock.js";
import { ParamReader } from "./params.js";
import { resolveScope } from "./scope.js";
import type { EntryKind } from "./store/entry-kind.js";
import {
  type Entry,
  type EntryPage,
  type EntryStore,
  type MaybePromise,
  type PreconditionFailure,
  whenReady,
} from "./store/entry-store.js";

/** Largest KV value by default: 1 MiB of serialized JSON. */
export const DEFAULT_MAX_VALUE_BYTES = 1024 * 1024;
/** Longest key (in characters). */
export const MAX_KEY_LENGTH = 1024;
/** Page size of `storage/list` when no `limit` is given, and the largest allowed. */
export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 1000;

export interface StorageProviderOptions {
  /** The database: the local SQLite store (`LocalStore`) or another {@link EntryStore}. */
  store: EntryStore;
  /** Largest serialized value; bigger ones answer -32025. Default 1 MiB. */
  maxValueBytes?: number;
  now?: Clock;
}

/**
 * `storage/get | set | delete | list` on the local SQLite store: scopes kept apart,
 * etag + generation per key, `if_match` → -32023, `ttl_seconds` expiry, prefix + cursor
 * pagination over KV entries and files (`kind`), a value size limit → -32025.
 */
export class StorageProvider implements ReverseProvider {
  private readonly maxValueBytes: number;
  private readonly now: Clock;

  constructor(private readonly options: StorageProviderOptions) {
    this.maxValueBytes = options.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES;
    this.now = options.now ?? systemClock;
  }

  handle(call: ReverseCall): unknown {
    const reader = new ParamReader(call.params, call.method, StorageErrorCode.INVALID_REQUEST);
    switch (call.method) {
      case "storage/get":
        return this.get(reader, call);
      case "storage/set":
        return this.set(reader, call);
      case "storage/delete":
        return this.delete(reader, call);
      case "storage/list":
        return this.list(reader, call);
      default:
        throw new RpcError(JsonRpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${call.method}`);
    }
  }

  private get(reader: ParamReader, call: ReverseCall) {
    const { namespace } = resolveScope(reader, call.context);
    return whenReady(this.options.store.get(namespace, "kv", readKey(reader)), (entry) => {
      if (!entry) return { exists: false, value: null };
      return {
        exists: true,
        value: JSON.parse(entry.valueJson ?? "null") as unknown,
        etag: entry.etag,
        generation: entry.generation,
        size_bytes: entry.sizeBytes,
        updated_at: iso(entry.updatedAt),
        ...(entry.expiresAt === null ? {} : { expires_at: iso(entry.expiresAt) }),
      };
    });
  }

  private set(reader: ParamReader, call: ReverseCall) {
    const { namespace } = resolveScope(reader, call.context);
    const key = readKey(reader);
    if (!("value" in call.params) || call.params.value === undefined)
      reader.fail("value is required (any JSON)");
    let valueJson: string;
    try {
      valueJson = JSON.stringify(call.params.value);
    } catch (error) {
      reader.fail(`value is not serializable: ${(error as Error).message}`);
    }
    const sizeBytes = Buffer.byteLength(valueJson);
    if (sizeBytes > this.maxValueBytes) {
      throw new RpcError(
        StorageErrorCode.VALUE_TOO_LARGE,
        `storage/set: value of ${sizeBytes} bytes exceeds the ${this.maxValueBytes} byte limit`,
        { size_bytes: sizeBytes, max_bytes: this.maxValueBytes },
      );
    }
    const ttl = reader.optionalPositive("ttl_seconds");
    const expiresAt = ttl === undefined ? null : this.now() + Math.round(ttl * 1000);
    const written = this.options.store.put(
      namespace,
      "kv",
      key,
      { valueJson, sizeBytes, expiresAt },
      reader.optionalString("if_match"),
    );
    return whenReady(written, (outcome) => {
      if (!outcome.ok) throw preconditionFailed(call.method, key, outcome);
      const { entry } = outcome;
      return {
        etag: entry.etag,
        generation: entry.generation,
        size_bytes: entry.sizeBytes,
        ...(entry.expiresAt === null ? {} : { expires_at: iso(entry.expiresAt) }),
      };
    });
  }

  private delete(reader: ParamReader, call: ReverseCall) {
    const { namespace } = resolveScope(reader, call.context);
    const key = readKey(reader);
    const deleted = this.options.store.delete(namespace, "kv", key, reader.optionalString("if_match"));
    return whenReady(deleted, (outcome) => {
      if (!outcome.ok) throw preconditionFailed(call.method, key, outcome);
      return { deleted: outcome.deleted !== undefined };
    });
  }

  private list(reader: ParamReader, call: ReverseCall) {
    const { namespace } = resolveScope(reader, call.context);
    const kind = reader.has("kind") ? reader.oneOf<EntryKind>("kind", ["kv", "file"]) : undefined;
    return whenReady(listPage(this.options.store, namespace, reader, kind), (page) => ({
      items: page.items.map(describeEntry),
      next_cursor: page.nextCursor,
    }));
  }
}

/** Reads `prefix`, `cursor`, `limit` and lists one page; shared by `storage/list` and `files/list`. */
export function listPage(
  store: EntryStore,
  namespace: string,
  reader: ParamReader,
  kind: EntryKind | undefined,
): MaybePromise<EntryPage> {
  const prefix = reader.has("prefix") ? stringParam(reader, "prefix") : undefined;
  const cursor = reader.optionalString("cursor");
  const limit = reader.optionalInteger("limit", 1, MAX_LIST_LIMIT) ?? DEFAULT_LIST_LIMIT;
  // A cursor the store did not make is the caller's mistake (a TypeError, thrown or rejected).
  const badCursor = (error: unknown): never => {
    if (error instanceof TypeError) reader.fail(error.message);
    throw error;
  };
  try {
    const page = store.list(namespace, { kind, prefix, cursor, limit });
    return page instanceof Promise ? page.catch(badCursor) : page;
  } catch (error) {
    return badCursor(error);
  }
}

/** One `storage/list` item. */
function describeEntry(entry: Entry) {
  return {
    key: entry.key,
    kind: entry.kind,
    etag: entry.etag,
    generation: entry.generation,
    size_bytes: entry.sizeBytes,
    updated_at: iso(entry.updatedAt),
    ...(entry.expiresAt === null ? {} : { expires_at: iso(entry.expiresAt) }),
    ...(entry.contentType === null ? {} : { content_type: entry.contentType }),
  };
}

function readKey(reader: ParamReader): string {
  const key = reader.string("key");
  if (key.length > MAX_KEY_LENGTH) reader.fail(`key is longer than ${MAX_KEY_LENGTH} characters`);
  if (key.includes("\u0000")) reader.fail("key must not contain NUL");
  return key;
}

function stringParam(reader: ParamReader, name: string): string {
  const value = reader.raw(name);
  if (typeof value !== "string") reader.fail(`${name} must be a string`);
  return value;
}

/** The -32023 answer to an `if_match` that did not match. */
export function preconditionFailed(method: string, key: string, failure: PreconditionFailure): RpcError {
  return new RpcError(
    StorageErrorCode.PRECONDITION_FAILED,
    failure.current
      ? `${method}: if_match does not match the current etag of "${key}"`
      : `${method}: if_match given but "${key}" does not exist`,
    { current_etag: failure.current?.etag ?? null, current_generation: failure.current?.generation ?? null },
  );
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
