import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  JsonRpcErrorCode,
  type ReverseMethod,
  type ReverseParams,
  RpcError,
  StorageErrorCode,
} from "@executa/core";
import { HostError, isHostError } from "../errors/host-error.js";
import type { ReverseCall, ReverseProvider } from "../providers/provider.js";
import { type Clock, systemClock } from "./clock.js";
import { type BlobDir, type ReceivedBlob } from "./http/blob-dir.js";
import { finish, type LoopbackServer } from "./http/loopback-server.js";
import { invalidParams, paramsOf } from "./method-params.js";
import { readObjectPath } from "./object-path.js";
import { type ResolvedScope, resolveScope, type StorageScope } from "./scope.js";
import { iso, listPage } from "./storage-provider.js";
import type { Entry, EntryStore } from "./store/entry-store.js";

/** Largest object by default: 100 MiB. */
export const DEFAULT_MAX_OBJECT_BYTES = 100 * 1024 * 1024;
/** How long a presigned PUT URL lives by default. */
export const DEFAULT_UPLOAD_URL_TTL_S = 15 * 60;
/** How long a download URL lives when the call names no `expires_in`. */
export const DEFAULT_DOWNLOAD_URL_TTL_S = 60 * 60;
/** The longest download URL life a call may ask for (7 days). */
export const MAX_DOWNLOAD_URL_TTL_S = 7 * 24 * 60 * 60;

export interface FilesProviderOptions {
  /** The database of the objects' metadata: the local SQLite store (`LocalStore`) or another {@link EntryStore}. */
  store: EntryStore;
  blobs: BlobDir;
  server: LoopbackServer;
  maxObjectBytes?: number;
  uploadUrlTtlSeconds?: number;
  now?: Clock;
}

interface PendingUpload {
  uploadId: string;
  scope: ResolvedScope;
  path: string;
  declaredSize: number | undefined;
  contentType: string | undefined;
  metadata: Record<string, unknown> | undefined;
  expiresAt: number;
  received?: ReceivedBlob;
}

const PUT_ROUTE = "files-put";
const GET_ROUTE = "files";

/**
 * `files/upload_begin | upload_complete | download_url | list | delete` (and the
 * reference SDKs' `user_files/*` spelling of user scope): objects whose bytes travel
 * over presigned, expiring, HMAC-signed URLs of the loopback server and live as blobs on
 * disk, with their metadata in the storage database (so `storage/list` sees them as
 * `kind: "file"`). `upload_complete` checks the received size against the one declared.
 */
export class FilesProvider implements ReverseProvider {
  private readonly pending = new Map<string, PendingUpload>();
  private readonly now: Clock;
  private readonly maxObjectBytes: number;

  constructor(private readonly options: FilesProviderOptions) {
    this.now = options.now ?? systemClock;
    this.maxObjectBytes = options.maxObjectBytes ?? DEFAULT_MAX_OBJECT_BYTES;
    options.server.route(PUT_ROUTE, { PUT: (id, request, response) => this.receive(id, request, response) });
    options.server.route(GET_ROUTE, { GET: (id, _request, response) => this.serve(id, response) });
  }

  async handle(call: ReverseCall): Promise<unknown> {
    const action = call.method.slice(call.method.indexOf("/") + 1);
    switch (action) {
      case "upload_begin":
        return this.begin(call, filesParams(call, "files/upload_begin"));
      case "upload_complete":
        return this.complete(call, filesParams(call, "files/upload_complete"));
      case "download_url":
        return this.downloadUrl(call, filesParams(call, "files/download_url"));
      case "list": {
        const params = filesParams(call, "files/list");
        const scope = resolveScope(params.scope, call.context);
        const page = await listPage(this.options.store, scope.namespace, call, params, "file");
        return {
          items: page.items.map((entry) => describeObject(entry, scope.scope)),
          next_cursor: page.nextCursor,
        };
      }
      case "delete":
        return this.remove(call, resolveScope(filesParams(call, "files/delete").scope, call.context));
      default:
        throw new RpcError(JsonRpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${call.method}`);
    }
  }

  private async begin(call: ReverseCall, params: ReverseParams<"files/upload_begin">) {
    const scope = resolveScope(params.scope, call.context);
    const path = readObjectPath(call.method, params.path);
    const declaredSize = params.size_bytes;
    if (declaredSize !== undefined && declaredSize > this.maxObjectBytes) {
      throw new RpcError(
        StorageErrorCode.VALUE_TOO_LARGE,
        `${call.method}: ${declaredSize} bytes exceeds the ${this.maxObjectBytes} byte object limit`,
        { size_bytes: declaredSize, max_bytes: this.maxObjectBytes },
      );
    }
    const contentType = params.content_type;
    const upload: PendingUpload = {
      uploadId: randomUUID(),
      scope,
      path,
      declaredSize,
      contentType,
      metadata: params.metadata,
      expiresAt: this.now() + (this.options.uploadUrlTtlSeconds ?? DEFAULT_UPLOAD_URL_TTL_S) * 1000,
    };
    this.dropExpiredUploads();
    this.pending.set(upload.uploadId, upload);
    const putUrl = await this.options.server.presign("PUT", PUT_ROUTE, upload.uploadId, upload.expiresAt);
    return {
      upload_id: upload.uploadId,
      put_url: putUrl,
      headers: { "content-type": contentType ?? "application/octet-stream" },
      expires_at: iso(upload.expiresAt),
    };
  }

  private async complete(call: ReverseCall, params: ReverseParams<"files/upload_complete">) {
    const scope = resolveScope(params.scope, call.context);
    const path = readObjectPath(call.method, params.path);
    const upload = this.findUpload(uploadIdOf(call), scope, path);
    if (!upload) {
      throw new RpcError(
        StorageErrorCode.NOT_FOUND,
        `${call.method}: no upload of "${path}" was begun (or it expired)`,
      );
    }
    const received = upload.received;
    if (!received) throw invalidParams(call, `nothing was uploaded to the put_url of "${path}" yet`);
    const expected = params.size_bytes ?? upload.declaredSize;
    if (expected !== undefined && expected !== received.sizeBytes) {
      throw invalidParams(
        call,
        `size mismatch for "${path}": expected ${expected} bytes, received ${received.sizeBytes}`,
        { expected_size_bytes: expected, received_size_bytes: received.sizeBytes },
      );
    }
    const { etag } = params;
    if (etag !== undefined && etag.replace(/^W\//, "").replace(/"/g, "") !== received.md5) {
      throw new RpcError(
        StorageErrorCode.PRECONDITION_FAILED,
        `${call.method}: etag ${etag} does not match the uploaded bytes of "${path}"`,
        { etag: received.md5 },
      );
    }
    this.pending.delete(upload.uploadId);
    const blob = await this.options.blobs.keep(received.name);
    const outcome = await this.options.store.put(scope.namespace, "file", path, {
      blob,
      contentType: params.content_type ?? upload.contentType ?? "application/octet-stream",
      metadata: upload.metadata ?? null,
      sizeBytes: received.sizeBytes,
      etag: received.md5,
    });
    if (!outcome.ok) throw new HostError("INTERNAL", "an unguarded store write failed");
    if (outcome.replaced?.blob) await this.options.blobs.remove(outcome.replaced.blob);
    return describeObject(outcome.entry, scope.scope);
  }

  private async downloadUrl(call: ReverseCall, params: ReverseParams<"files/download_url">) {
    const scope = resolveScope(params.scope, call.context);
    const path = readObjectPath(call.method, params.path);
    const entry = await this.options.store.get(scope.namespace, "file", path);
    if (!entry) throw new RpcError(StorageErrorCode.NOT_FOUND, `${call.method}: no object "${path}"`);
    const ttl = params.expires_in ?? params.ttl_seconds ?? DEFAULT_DOWNLOAD_URL_TTL_S;
    if (!Number.isInteger(ttl) || ttl > MAX_DOWNLOAD_URL_TTL_S) {
      throw invalidParams(call, `expires_in must be an integer from 1 to ${MAX_DOWNLOAD_URL_TTL_S}`);
    }
    const expiresAt = this.now() + ttl * 1000;
    const url = await this.options.server.presign(
      "GET",
      GET_ROUTE,
      objectToken(scope.namespace, path),
      expiresAt,
    );
    return {
      url,
      get_url: url,
      expires_at: iso(expiresAt),
      size_bytes: entry.sizeBytes,
      content_type: entry.contentType,
      etag: entry.etag,
    };
  }

  private async remove(call: ReverseCall, scope: ResolvedScope) {
    const path = readObjectPath(call.method, call.params.path);
    const outcome = await this.options.store.delete(scope.namespace, "file", path);
    const deleted = outcome.ok ? outcome.deleted : undefined;
    if (deleted?.blob) await this.options.blobs.remove(deleted.blob);
    return { deleted: deleted !== undefined };
  }

  private findUpload(
    uploadId: string | undefined,
    scope: ResolvedScope,
    path: string,
  ): PendingUpload | undefined {
    this.dropExpiredUploads();
    if (uploadId !== undefined) {
      const upload = this.pending.get(uploadId);
      return upload && upload.scope.namespace === scope.namespace && upload.path === path
        ? upload
        : undefined;
    }
    let latest: PendingUpload | undefined;
    for (const upload of this.pending.values()) {
      if (upload.scope.namespace === scope.namespace && upload.path === path) latest = upload;
    }
    return latest;
  }

  private dropExpiredUploads(): void {
    const now = this.now();
    for (const [id, upload] of this.pending) {
      if (upload.expiresAt > now) continue;
      this.pending.delete(id);
      if (upload.received) void this.options.blobs.remove(upload.received.name);
    }
  }

  private async receive(uploadId: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const upload = this.pending.get(uploadId);
    if (!upload) {
      request.resume();
      return finish(response, 404, "upload not found (completed or expired)");
    }
    let received: ReceivedBlob;
    try {
      received = await this.options.blobs.receive(request, this.maxObjectBytes);
    } catch (error) {
      if (isHostError(error, "BLOB_TOO_LARGE")) return finish(response, 413, error.message);
      throw error;
    }
    if (upload.received) await this.options.blobs.remove(upload.received.name);
    upload.received = received;
    response.writeHead(200, { etag: `"${received.md5}"`, "content-length": "0" }).end();
  }

  private async serve(token: string, response: ServerResponse): Promise<void> {
    const target = parseObjectToken(token);
    const entry = target && (await this.options.store.get(target.namespace, "file", target.path));
    if (!entry?.blob) return finish(response, 404, "object not found");
    await this.options.blobs.send(response, entry.blob, {
      "content-type": entry.contentType ?? "application/octet-stream",
      etag: `"${entry.etag}"`,
    });
  }
}

/** The object info `upload_complete` and `files/list` answer with. */
function describeObject(entry: Entry, scope: StorageScope) {
  return {
    path: entry.key,
    scope,
    size_bytes: entry.sizeBytes,
    content_type: entry.contentType,
    etag: entry.etag,
    generation: entry.generation,
    updated_at: iso(entry.updatedAt),
    ...(entry.metadata === null ? {} : { metadata: entry.metadata }),
  };
}

function objectToken(namespace: string, path: string): string {
  return Buffer.from(JSON.stringify([namespace, path]), "utf8").toString("base64url");
}

function parseObjectToken(token: string): { namespace: string; path: string } | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
    if (Array.isArray(value) && typeof value[0] === "string" && typeof value[1] === "string") {
      return { namespace: value[0], path: value[1] };
    }
  } catch {}
  return undefined;
}

/**
 * The params of a `files/*` call, checked against `method`'s row; the reference SDKs'
 * `user_files/*` spelling carries no `scope`: it is the user's.
 */
function filesParams<M extends ReverseMethod>(call: ReverseCall, method: M): ReverseParams<M> {
  if (!call.method.startsWith("user_files/")) return paramsOf(call, method);
  return paramsOf({ ...call, params: { ...call.params, scope: "user" } }, method);
}

/** `upload_id` of `files/upload_complete`, which the spec does not list but hosts may send back. */
function uploadIdOf(call: ReverseCall): string | undefined {
  const { upload_id } = call.params;
  if (upload_id === undefined || upload_id === null) return undefined;
  if (typeof upload_id !== "string" || upload_id === "")
    throw invalidParams(call, "upload_id must be a non-empty string");
  return upload_id;
}
