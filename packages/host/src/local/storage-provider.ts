import { JsonRpcErrorCode, type ReverseParams, RpcError, StorageErrorCode } from "@executa/core";
import type { ReverseCall, ReverseProvider } from "../providers/provider.js";
import { type Clock, systemClock } from "./clock.js";
import { invalidParams, paramsOf } from "./method-params.js";
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
    switch (call.method) {
      case "storage/get":
        return this.get(call);
      case "storage/set":
        return this.set(call);
      case "storage/delete":
        return this.delete(call);
      case "storage/list":
        return this.list(call);
      default:
        throw new RpcError(JsonRpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${call.method}`);
    }
  }

  private get(call: ReverseCall) {
    const params = paramsOf(call, "storage/get");
    const { namespace } = resolveScope(params.scope, call.context);
    return whenReady(this.options.store.get(namespace, "kv", checkKey(call, params.key)), (entry) => {
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

  private set(call: ReverseCall) {
    const params = paramsOf(call, "storage/set");
    const { namespace } = resolveScope(params.scope, call.context);
    const key = checkKey(call, params.key);
    let valueJson: string;
    try {
      valueJson = JSON.stringify(params.value);
    } catch (error) {
      throw invalidParams(call, `value is not serializable: ${(error as Error).message}`);
    }
    const sizeBytes = Buffer.byteLength(valueJson);
    if (sizeBytes > this.maxValueBytes) {
      throw new RpcError(
        StorageErrorCode.VALUE_TOO_LARGE,
        `storage/set: value of ${sizeBytes} bytes exceeds the ${this.maxValueBytes} byte limit`,
        { size_bytes: sizeBytes, max_bytes: this.maxValueBytes },
      );
    }
    const ttl = params.ttl_seconds;
    const expiresAt = ttl === undefined ? null : this.now() + Math.round(ttl * 1000);
    const written = this.options.store.put(
      namespace,
      "kv",
      key,
      { valueJson, sizeBytes, expiresAt },
      params.if_match,
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

  private delete(call: ReverseCall) {
    const params = paramsOf(call, "storage/delete");
    const { namespace } = resolveScope(params.scope, call.context);
    const key = checkKey(call, params.key);
    const deleted = this.options.store.delete(namespace, "kv", key, params.if_match);
    return whenReady(deleted, (outcome) => {
      if (!outcome.ok) throw preconditionFailed(call.method, key, outcome);
      return { deleted: outcome.deleted !== undefined };
    });
  }

  private list(call: ReverseCall) {
    const params = paramsOf(call, "storage/list");
    const { namespace } = resolveScope(params.scope, call.context);
    return whenReady(listPage(this.options.store, namespace, call, params, params.kind), (page) => ({
      items: page.items.map(describeEntry),
      next_cursor: page.nextCursor,
    }));
  }
}

/** Lists one page of `prefix`, `cursor`, `limit`; shared by `storage/list` and `files/list`. */
export function listPage(
  store: EntryStore,
  namespace: string,
  call: ReverseCall,
  params: ReverseParams<"files/list">,
  kind: EntryKind | undefined,
): MaybePromise<EntryPage> {
  const { prefix, cursor, limit = DEFAULT_LIST_LIMIT } = params;
  if (limit > MAX_LIST_LIMIT)
    throw invalidParams(call, `limit must be an integer from 1 to ${MAX_LIST_LIMIT}`);
  // A cursor the store did not make is the caller's mistake (a TypeError, thrown or rejected).
  const badCursor = (error: unknown): never => {
    if (error instanceof TypeError) throw invalidParams(call, error.message);
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

/** `key` within this host's rules: at most {@link MAX_KEY_LENGTH} characters, no NUL. */
function checkKey(call: ReverseCall, key: string): string {
  if (key.length > MAX_KEY_LENGTH)
    throw invalidParams(call, `key is longer than ${MAX_KEY_LENGTH} characters`);
  if (key.includes("\u0000")) throw invalidParams(call, "key must not contain NUL");
  return key;
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
