import { reverseMethodSpec } from "../wire/capability-families.js";
import { StorageErrorCode } from "../wire/error-codes.js";
import type { CallOptions } from "./family.js";
import type { HostCaller } from "./host-call.js";
import { PutError, putBytes, toBytes } from "./http-put.js";
import {
  normalizePage,
  type ScopeOptions,
  StorageError,
  type StorageListPage,
  storageFamily,
  wireScope,
} from "./storage.js";

/** Result of `files/upload_begin`: PUT the bytes to `put_url` with `headers`. */
export interface FileUploadTicket {
  upload_id?: string;
  put_url: string;
  headers?: Record<string, string>;
  expires_at?: string;
  [key: string]: unknown;
}

/** What the host knows of a stored object (`files/upload_complete`, `files/list` items). */
export interface FileInfo {
  path?: string;
  size_bytes?: number;
  content_type?: string;
  etag?: string;
  updated_at?: string;
  [key: string]: unknown;
}

/** Result of `files/download_url`; `url` is filled from `get_url` for hosts that answer that. */
export interface FileDownloadUrl {
  url: string;
  expires_at?: string;
  [key: string]: unknown;
}

export interface FileUploadBeginOptions extends ScopeOptions {
  sizeBytes?: number;
  contentType?: string;
  metadata?: Record<string, unknown>;
}

export interface FileUploadCompleteOptions extends ScopeOptions {
  /** The ETag the storage answered the PUT with. */
  etag?: string;
  sizeBytes?: number;
  contentType?: string;
}

export interface FileDownloadOptions extends ScopeOptions {
  /** Lifetime of the link, seconds (sent as `expires_in` and `ttl_seconds`). */
  expiresIn?: number;
}

export interface FileListOptions extends ScopeOptions {
  prefix?: string;
  cursor?: string;
  limit?: number;
}

export interface FileUploadOptions extends ScopeOptions {
  contentType?: string;
  metadata?: Record<string, unknown>;
  /** Timeout of the HTTP PUT alone, ms (default 120 s; never past the invoke's deadline). */
  putTimeoutMs?: number;
}

/** Result of {@link FilesClient.upload}. */
export interface FileUploadResult {
  path: string;
  sizeBytes: number;
  /** The ETag the storage answered the PUT with, if any. */
  etag: string | undefined;
  /** What `files/upload_complete` answered. */
  info: FileInfo;
}

const UPLOAD_BEGIN = reverseMethodSpec("files/upload_begin");
const UPLOAD_COMPLETE = reverseMethodSpec("files/upload_complete");
const DOWNLOAD_URL = reverseMethodSpec("files/download_url");
const LIST = reverseMethodSpec("files/list");
const DELETE = reverseMethodSpec("files/delete");
const PUT_TIMEOUT_MS = 120_000;

/** `ctx.host.files`: the host's object storage (`aps.files`), uploaded to by presigned PUT. */
export class FilesClient {
  /** Built with the invoke's host caller by core (`ctx.host`); plugin code never constructs one. @internal */
  constructor(private readonly caller: HostCaller) {}

  /** Starts an upload: the host answers with a presigned `put_url` and the `headers` to send. */
  async uploadBegin(path: string, options: FileUploadBeginOptions = {}): Promise<FileUploadTicket> {
    const { scope, sizeBytes, contentType, metadata, ...call } = options;
    const reply = await this.caller.call(
      storageFamily,
      UPLOAD_BEGIN,
      {
        path: this.path(UPLOAD_BEGIN.method, path),
        scope: wireScope(UPLOAD_BEGIN.method, scope),
        size_bytes: sizeBytes,
        content_type: contentType,
        metadata,
      },
      call,
    );
    // Hosts may omit fields the public type names; the ones present are checked.
    return reply as FileUploadTicket;
  }

  /** Tells the host the PUT is done; it checks the object landed and answers its info. */
  async uploadComplete(path: string, options: FileUploadCompleteOptions = {}): Promise<FileInfo> {
    const { scope, etag, sizeBytes, contentType, ...call } = options;
    return this.caller.call(
      storageFamily,
      UPLOAD_COMPLETE,
      {
        path: this.path(UPLOAD_COMPLETE.method, path),
        scope: wireScope(UPLOAD_COMPLETE.method, scope),
        etag,
        size_bytes: sizeBytes,
        content_type: contentType,
      },
      call,
    );
  }

  /** A short-lived download link for `path`. */
  async downloadUrl(path: string, options: FileDownloadOptions = {}): Promise<FileDownloadUrl> {
    const { scope, expiresIn, ...call } = options;
    const result = await this.caller.call(
      storageFamily,
      DOWNLOAD_URL,
      {
        path: this.path(DOWNLOAD_URL.method, path),
        scope: wireScope(DOWNLOAD_URL.method, scope),
        expires_in: expiresIn,
        ttl_seconds: expiresIn,
      },
      call,
    );
    const url = typeof result.url === "string" ? result.url : result.get_url;
    if (typeof url !== "string" || url === "") {
      throw new StorageError(
        StorageErrorCode.UPSTREAM,
        "files/download_url: the host answered without a url",
        {
          result,
        },
      );
    }
    return { ...result, url };
  }

  /** One page of files under `prefix`. */
  async list(options: FileListOptions = {}): Promise<StorageListPage<FileInfo>> {
    const { scope, prefix, cursor, limit, ...call } = options;
    const result = await this.caller.call(
      storageFamily,
      LIST,
      { scope: wireScope(LIST.method, scope), prefix, cursor, limit },
      call,
    );
    return normalizePage<FileInfo>(result);
  }

  async delete(path: string, options: ScopeOptions = {}): Promise<Record<string, unknown>> {
    const { scope, ...call } = options;
    return this.caller.call(
      storageFamily,
      DELETE,
      { path: this.path(DELETE.method, path), scope: wireScope(DELETE.method, scope) },
      call,
    );
  }

  /**
   * Uploads `content` (bytes, or text as UTF-8) to `path`: `files/upload_begin`, then an
   * HTTP PUT of the bytes to the presigned URL with exactly the headers the host returned,
   * then `files/upload_complete` with the ETag the storage answered. A failed PUT rejects
   * with UPSTREAM (-32029), a PUT that runs out of time with TIMEOUT (-32030).
   */
  async upload(
    path: string,
    content: Uint8Array | string,
    options: FileUploadOptions = {},
  ): Promise<FileUploadResult> {
    const { scope, contentType, metadata, putTimeoutMs, timeoutMs, signal } = options;
    if (typeof content !== "string" && !(content instanceof Uint8Array)) {
      throw new StorageError(
        StorageErrorCode.INVALID_REQUEST,
        "files.upload: content must be a Uint8Array or a string",
      );
    }
    const bytes = toBytes(content);
    const ticket = await this.uploadBegin(path, {
      scope,
      sizeBytes: bytes.byteLength,
      contentType,
      metadata,
      timeoutMs,
      signal,
    });
    if (typeof ticket.put_url !== "string" || ticket.put_url === "") {
      throw new StorageError(
        StorageErrorCode.UPSTREAM,
        "files/upload_begin: the host answered without a put_url",
        {
          result: ticket,
        },
      );
    }
    const put = await this.put(ticket, bytes, { timeoutMs: putTimeoutMs, signal });
    const info = await this.uploadComplete(path, {
      scope,
      etag: put.etag,
      sizeBytes: bytes.byteLength,
      contentType,
      timeoutMs,
      signal,
    });
    return { path, sizeBytes: bytes.byteLength, etag: put.etag, info };
  }

  private async put(ticket: FileUploadTicket, bytes: Uint8Array, options: CallOptions) {
    const budget = this.caller.budget(storageFamily, "files.upload PUT", PUT_TIMEOUT_MS, options);
    try {
      return await putBytes(ticket.put_url, bytes, ticket.headers, budget);
    } catch (error) {
      if (!(error instanceof PutError)) throw error;
      const code = error.failure.kind === "timeout" ? StorageErrorCode.TIMEOUT : StorageErrorCode.UPSTREAM;
      throw new StorageError(code, `files.upload: ${error.message}`, error.failure, { cause: error });
    }
  }

  private path(method: string, path: unknown): string {
    if (typeof path !== "string" || path === "") {
      throw new StorageError(StorageErrorCode.INVALID_REQUEST, `${method}: path must be a non-empty string`);
    }
    return path;
  }
}
