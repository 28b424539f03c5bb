import { errorBrand } from "../errors/brand.js";
import { reverseMethodSpec } from "../wire/capability-families.js";
import { StorageErrorCode } from "../wire/error-codes.js";
import { type BackoffOptions, backoffDelay, sleep } from "./backoff.js";
import { CapabilityError } from "./capability-error.js";
import type { CallOptions, Family } from "./family.js";
import type { HostCaller } from "./host-call.js";

/**
 * A `storage/*` or `files/*` call failed (the two share their codes:
 * {@link StorageErrorCode}). Neither family has a NOT_NEGOTIATED code: a host that did not
 * negotiate 2.0 gives NOT_GRANTED with `data.reason === "not_negotiated"`.
 */
export class StorageError extends CapabilityError {
  /** The process-wide identity of this class (see `RpcError`). */
  static override readonly brand: symbol = errorBrand("StorageError");

  static readonly codes = StorageErrorCode;
  override readonly name = "StorageError";
  readonly family = "storage" as const;
  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(StorageErrorCode, code, message, data, options);
  }
  /** The key or file does not exist. (`storage/get` of a missing key is not an error: `exists: false`.) */
  isNotFound(): boolean {
    return this.code === StorageErrorCode.NOT_FOUND;
  }
  /** `if_match` did not match the current etag: someone else wrote first. */
  isPreconditionFailed(): boolean {
    return this.code === StorageErrorCode.PRECONDITION_FAILED;
  }
  isRateLimited(): boolean {
    return this.code === StorageErrorCode.RATE_LIMITED;
  }
  isValueTooLarge(): boolean {
    return this.code === StorageErrorCode.VALUE_TOO_LARGE;
  }
  isInvalidPath(): boolean {
    return this.code === StorageErrorCode.INVALID_PATH;
  }
}

export const storageFamily: Family<StorageError> = {
  name: "storage",
  codes: StorageErrorCode,
  malformedReplyCode: StorageErrorCode.UPSTREAM,
  error: (code, message, data, options) => new StorageError(code, message, data, options),
};

/**
 * Whose data: `user` (the user's, across plugins and apps; hosts may also want
 * `aps.scope.user.read` / `aps.scope.user.write` declared), `app` (granted only inside an
 * app), `tool` (this tool's private space). The clients default to `tool`, the one scope
 * a standalone plugin can always use.
 */
export type StorageScope = (typeof STORAGE_SCOPES)[number];

/** Every {@link StorageScope}, in the spec's order. */
export const STORAGE_SCOPES = ["user", "app", "tool"] as const;

export const DEFAULT_STORAGE_SCOPE: StorageScope = "tool";

export interface ScopeOptions extends CallOptions {
  /** Default "tool". */
  scope?: StorageScope;
}

export interface StorageSetOptions extends ScopeOptions {
  /** Write only if the current etag is this one (optimistic concurrency); else -32023. */
  ifMatch?: string;
  /** Expire the key after this many seconds. */
  ttlSeconds?: number;
}

export interface StorageDeleteOptions extends ScopeOptions {
  ifMatch?: string;
}

export interface StorageListOptions extends ScopeOptions {
  prefix?: string;
  /** `next_cursor` of the previous page. */
  cursor?: string;
  limit?: number;
  kind?: "kv" | "file";
}

/** Result of `storage/get`. A missing key gives `exists: false` and `value: null`. */
export interface StorageEntry<T = unknown> {
  value: T | null;
  etag?: string | null;
  exists: boolean;
  [key: string]: unknown;
}

/** Result of `storage/set`. */
export interface StorageWriteResult {
  etag?: string;
  generation?: number | string;
  size_bytes?: number;
  [key: string]: unknown;
}

export interface StorageListItem {
  key?: string;
  path?: string;
  kind?: string;
  etag?: string;
  size_bytes?: number;
  updated_at?: string;
  [key: string]: unknown;
}

/** A page of `storage/list` or `files/list`; `next_cursor` is null on the last page. */
export interface StorageListPage<I = StorageListItem> {
  items: I[];
  next_cursor: string | null;
  [key: string]: unknown;
}

export interface StorageUpdateOptions extends ScopeOptions {
  /** Attempts in all (first try included) before giving up with -32023. Default 5. */
  maxAttempts?: number;
  /** Waits between attempts. Default: up to 50 ms, doubling, at most 1 s, jittered. */
  backoff?: BackoffOptions;
  /** Sent with each write. */
  ttlSeconds?: number;
}

/** Result of {@link StorageClient.update}. */
export interface StorageUpdateResult<T> {
  /** The value written. */
  value: T;
  /** Its etag, when the host sent one. */
  etag: string | undefined;
  /** How many read-modify-write rounds it took. */
  attempts: number;
}

const GET = reverseMethodSpec("storage/get");
const SET = reverseMethodSpec("storage/set");
const DELETE = reverseMethodSpec("storage/delete");
const LIST = reverseMethodSpec("storage/list");

/** The wire `scope`, validated; shared with `files/*`. */
export function wireScope(method: string, scope: unknown): StorageScope {
  if (scope === undefined) return DEFAULT_STORAGE_SCOPE;
  if (typeof scope !== "string" || !(STORAGE_SCOPES as readonly string[]).includes(scope)) {
    const quoted = STORAGE_SCOPES.map((known) => JSON.stringify(known));
    throw new StorageError(
      StorageErrorCode.INVALID_REQUEST,
      `${method}: scope must be ${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}, got ${JSON.stringify(scope)}`,
    );
  }
  return scope as StorageScope;
}

/**
 * A page in its normal form (its shape already checked against the method's result
 * schema): `items` always an array, `next_cursor` always present, null on the last page.
 */
export function normalizePage<I>(result: Record<string, unknown>): StorageListPage<I> {
  return {
    ...result,
    items: Array.isArray(result.items) ? (result.items as I[]) : [],
    next_cursor:
      typeof result.next_cursor === "string" && result.next_cursor !== "" ? result.next_cursor : null,
  };
}

/** Rejects arguments of {@link StorageClient.update} that no retry could fix. */
function checkUpdateArguments(maxAttempts: number, fn: unknown): void {
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new StorageError(
      StorageErrorCode.INVALID_REQUEST,
      "storage.update: maxAttempts must be an integer ≥ 1",
    );
  }
  if (typeof fn !== "function") {
    throw new StorageError(StorageErrorCode.INVALID_REQUEST, "storage.update: fn must be a function");
  }
}

/** `ctx.host.storage`: the host's persistent key-value store (`aps.kv`). */
export class StorageClient {
  /** Built with the invoke's host caller by core (`ctx.host`); plugin code never constructs one. @internal */
  constructor(private readonly caller: HostCaller) {}

  /** Reads `key`. A missing key resolves with `exists: false`, not an error. */
  async get<T = unknown>(key: string, options: ScopeOptions = {}): Promise<StorageEntry<T>> {
    const { scope, ...call } = options;
    const params = { key: this.key(GET.method, key), scope: wireScope(GET.method, scope) };
    const result = await this.caller.call(storageFamily, GET, params, call);
    const value = (result.value ?? null) as T | null;
    const exists = typeof result.exists === "boolean" ? result.exists : value !== null;
    return { ...result, value, exists };
  }

  /** Writes `value` (any JSON) under `key`; with `ifMatch`, only over that etag. */
  async set(key: string, value: unknown, options: StorageSetOptions = {}): Promise<StorageWriteResult> {
    const { scope, ifMatch, ttlSeconds, ...call } = options;
    if (value === undefined) {
      throw new StorageError(
        StorageErrorCode.INVALID_REQUEST,
        "storage/set: value must be JSON, not undefined",
      );
    }
    return this.caller.call(
      storageFamily,
      SET,
      {
        key: this.key(SET.method, key),
        value,
        scope: wireScope(SET.method, scope),
        if_match: ifMatch,
        ttl_seconds: ttlSeconds,
      },
      call,
    );
  }

  /** Deletes `key`; with `ifMatch`, only if its etag still is that one. */
  async delete(key: string, options: StorageDeleteOptions = {}): Promise<Record<string, unknown>> {
    const { scope, ifMatch, ...call } = options;
    return this.caller.call(
      storageFamily,
      DELETE,
      { key: this.key(DELETE.method, key), scope: wireScope(DELETE.method, scope), if_match: ifMatch },
      call,
    );
  }

  /** One page of keys (and, with `kind: "file"`, files). Pass `next_cursor` back as `cursor`. */
  async list(options: StorageListOptions = {}): Promise<StorageListPage> {
    const { scope, prefix, cursor, limit, kind, ...call } = options;
    const result = await this.caller.call(
      storageFamily,
      LIST,
      { scope: wireScope(LIST.method, scope), prefix, cursor, limit, kind },
      call,
    );
    return normalizePage(result);
  }

  /**
   * Optimistic read-modify-write: reads `key`, computes the new value with `fn` (given
   * the current value, or undefined when the key does not exist), and writes it with
   * `if_match` set to the etag it read. When another writer got there first (-32023) it
   * waits a jittered, growing delay and starts over, at most `maxAttempts` times in all,
   * never past the invoke's deadline. `fn` may therefore run more than once: keep it free
   * of side effects.
   *
   * The protocol has no "create only if absent": when the key does not exist yet (or the
   * host sent no etag) the write carries no `if_match`, so two first writers can race.
   */
  async update<T>(
    key: string,
    fn: (current: T | undefined, entry: StorageEntry<T>) => T | Promise<T>,
    options: StorageUpdateOptions = {},
  ): Promise<StorageUpdateResult<T>> {
    const { maxAttempts = 5, backoff, ttlSeconds, ...read } = options;
    checkUpdateArguments(maxAttempts, fn);
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.updateOnce(key, fn, read, ttlSeconds, attempt);
      if (!(outcome instanceof StorageError)) return outcome;
      await this.waitAfterConflict(key, outcome, { attempt, maxAttempts, backoff, signal: read.signal });
    }
  }

  /**
   * One read-compute-conditional-write round of {@link StorageClient.update}: its result, or the
   * precondition failure when another writer got there first.
   */
  private async updateOnce<T>(
    key: string,
    fn: (current: T | undefined, entry: StorageEntry<T>) => T | Promise<T>,
    read: ScopeOptions,
    ttlSeconds: number | undefined,
    attempt: number,
  ): Promise<StorageUpdateResult<T> | StorageError> {
    const entry = await this.get<T>(key, read);
    const next = await fn(entry.exists ? (entry.value as T) : undefined, entry);
    const ifMatch = entry.exists && typeof entry.etag === "string" ? entry.etag : undefined;
    try {
      const written = await this.set(key, next, { ...read, ifMatch, ttlSeconds });
      return {
        value: next,
        etag: typeof written.etag === "string" ? written.etag : undefined,
        attempts: attempt,
      };
    } catch (error) {
      if (error instanceof StorageError && error.isPreconditionFailed()) return error;
      throw error;
    }
  }

  /**
   * Waits the backoff delay after a lost race of {@link StorageClient.update}, or throws -32023 when the
   * attempts are used up or the delay would pass the invoke's deadline.
   */
  private async waitAfterConflict(
    key: string,
    conflict: StorageError,
    retry: { attempt: number; maxAttempts: number; backoff?: BackoffOptions; signal?: AbortSignal },
  ): Promise<void> {
    const delay = backoffDelay(retry.attempt, retry.backoff);
    if (retry.attempt >= retry.maxAttempts || delay >= this.caller.remainingMs()) {
      throw new StorageError(
        StorageErrorCode.PRECONDITION_FAILED,
        `storage.update(${JSON.stringify(key)}): still conflicting after ${retry.attempt} attempt(s): ${conflict.message}`,
        conflict.data,
        { cause: conflict },
      );
    }
    await sleep(
      delay,
      retry.signal ? AbortSignal.any([this.caller.signal, retry.signal]) : this.caller.signal,
    );
  }

  private key(method: string, key: unknown): string {
    if (typeof key !== "string" || key === "") {
      throw new StorageError(StorageErrorCode.INVALID_REQUEST, `${method}: key must be a non-empty string`);
    }
    return key;
  }
}
