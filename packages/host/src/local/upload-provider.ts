import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  INLINE_UPLOAD_MAX_BYTES,
  JsonRpcErrorCode,
  type ReverseParams,
  RpcError,
  UploadErrorCode,
} from "@executa/core";
import { isHostError } from "../errors/host-error.js";
import type { ReverseCall, ReverseProvider } from "../providers/provider.js";
import { type Clock, systemClock } from "./clock.js";
import type { BlobDir } from "./http/blob-dir.js";
import { finish, type LoopbackServer } from "./http/loopback-server.js";
import { invalidParams, paramsOf } from "./method-params.js";
import { iso } from "./storage-provider.js";

/** Largest negotiated upload by default: 100 MiB. */
export const DEFAULT_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
/** How long transient download URLs (and negotiated PUT URLs) live by default. */
export const DEFAULT_UPLOAD_TTL_S = 60 * 60;

export interface UploadProviderOptions {
  blobs: BlobDir;
  server: LoopbackServer;
  /** Raw bytes an inline upload may carry. Default 8 MiB (the spec's). */
  maxInlineBytes?: number;
  /** Largest negotiated upload. Default 100 MiB. */
  maxUploadBytes?: number;
  /** Life of the URLs handed out. Default 1 h. */
  ttlSeconds?: number;
  /** Uploads one invoke may start; one more is -32211 (max files). Default 20. */
  maxFilesPerInvoke?: number;
  now?: Clock;
}

interface Upload {
  r2Key: string;
  invokeId: string;
  filename: string;
  mimeType: string;
  declaredSize: number | undefined;
  blob: string | undefined;
  sizeBytes: number | undefined;
  expiresAt: number;
}

const PUT_ROUTE = "uploads-put";
const GET_ROUTE = "uploads";
const MIME = /^[\w.+-]+\/[\w.+-]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * `host/uploadFile`, transient uploads that yield a download URL: `inline` (base64,
 * ≤ 8 MiB raw, else -32204), `negotiate` (a presigned PUT URL and an `r2_key`) and
 * `confirm` (checks the bytes arrived, in the declared size, for this same invoke).
 * The blobs live on disk until the providers are closed.
 */
export class UploadProvider implements ReverseProvider {
  private readonly uploads = new Map<string, Upload>();
  private readonly now: Clock;
  private readonly maxInline: number;
  private readonly maxUpload: number;
  private readonly ttlMs: number;
  private readonly maxFiles: number;

  constructor(private readonly options: UploadProviderOptions) {
    this.now = options.now ?? systemClock;
    this.maxInline = options.maxInlineBytes ?? INLINE_UPLOAD_MAX_BYTES;
    this.maxFiles = options.maxFilesPerInvoke ?? 20;
    this.maxUpload = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
    this.ttlMs = (options.ttlSeconds ?? DEFAULT_UPLOAD_TTL_S) * 1000;
    options.server.route(PUT_ROUTE, {
      PUT: (key, request, response) => this.receive(key, request, response),
    });
    options.server.route(GET_ROUTE, { GET: (key, _request, response) => this.serve(key, response) });
  }

  async handle(call: ReverseCall): Promise<unknown> {
    if (call.method !== "host/uploadFile") {
      throw new RpcError(JsonRpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${call.method}`);
    }
    const params = paramsOf(call, "host/uploadFile");
    switch (params.mode) {
      case "inline":
        return this.inline(call, params);
      case "negotiate":
        return this.negotiate(call, params);
      case "confirm":
        return this.confirm(call, params);
    }
  }

  private async inline(call: ReverseCall, params: UploadParams<"inline">) {
    const { filename, mimeType } = checkFileFields(params);
    const encoded = params.content_b64;
    const rawSize = base64Size(encoded);
    if (rawSize > this.maxInline) {
      throw new RpcError(
        UploadErrorCode.TOO_LARGE,
        `host/uploadFile: inline content of ${rawSize} bytes exceeds the ${this.maxInline} byte inline limit; use mode "negotiate"`,
        { size_bytes: rawSize, max_bytes: this.maxInline },
      );
    }
    if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) {
      throw invalidParams(call, "content_b64 is not valid base64");
    }
    const bytes = Buffer.from(encoded, "base64");
    const upload = this.register(call, filename, mimeType, bytes.length);
    upload.blob = await this.options.blobs.write(bytes);
    upload.sizeBytes = bytes.length;
    return this.describe(upload);
  }

  private async negotiate(call: ReverseCall, params: UploadParams<"negotiate">) {
    const { filename, mimeType } = checkFileFields(params);
    const size = params.size_bytes;
    if (size > this.maxUpload) {
      throw new RpcError(
        UploadErrorCode.TOO_LARGE,
        `host/uploadFile: ${size} bytes exceeds the ${this.maxUpload} byte upload limit`,
        { size_bytes: size, max_bytes: this.maxUpload },
      );
    }
    const upload = this.register(call, filename, mimeType, size);
    return {
      put_url: await this.options.server.presign("PUT", PUT_ROUTE, upload.r2Key, upload.expiresAt),
      headers: { "content-type": mimeType },
      r2_key: upload.r2Key,
      expires_at: iso(upload.expiresAt),
    };
  }

  private async confirm(call: ReverseCall, params: UploadParams<"confirm">) {
    const key = params.r2_key;
    const upload = this.uploads.get(key);
    if (!upload || upload.expiresAt <= this.now()) {
      throw new RpcError(UploadErrorCode.NOT_FOUND, `host/uploadFile: unknown or expired r2_key ${key}`);
    }
    if (upload.invokeId !== call.context.invokeId)
      throw invalidParams(call, "r2_key does not belong to this invoke");
    if (upload.blob === undefined || upload.sizeBytes === undefined) {
      throw new RpcError(
        UploadErrorCode.NOT_FOUND,
        `host/uploadFile: nothing was uploaded to the put_url of ${key}`,
      );
    }
    if (upload.declaredSize !== undefined && upload.declaredSize !== upload.sizeBytes) {
      throw invalidParams(
        call,
        `size mismatch: negotiated ${upload.declaredSize} bytes, received ${upload.sizeBytes}`,
        {
          expected_size_bytes: upload.declaredSize,
          received_size_bytes: upload.sizeBytes,
        },
      );
    }
    return this.describe(upload);
  }

  private register(call: ReverseCall, filename: string, mimeType: string, declaredSize: number): Upload {
    const invokeId = call.context.invokeId;
    let started = 0;
    for (const upload of this.uploads.values()) if (upload.invokeId === invokeId) started++;
    if (started >= this.maxFiles) {
      throw new RpcError(
        UploadErrorCode.MAX_FILES,
        `host/uploadFile: this invoke already started ${started} uploads (at most ${this.maxFiles})`,
        { files: started, max_files: this.maxFiles },
      );
    }
    const safeName = filename.replace(/[^\w.-]+/g, "_").slice(-128) || "file";
    const upload: Upload = {
      r2Key: `exec-uploads/${call.context.invokeId}/${randomUUID()}/${safeName}`,
      invokeId: call.context.invokeId,
      filename,
      mimeType,
      declaredSize,
      blob: undefined,
      sizeBytes: undefined,
      expiresAt: this.now() + this.ttlMs,
    };
    this.uploads.set(upload.r2Key, upload);
    return upload;
  }

  private async describe(upload: Upload) {
    return {
      download_url: await this.options.server.presign("GET", GET_ROUTE, upload.r2Key, upload.expiresAt),
      r2_key: upload.r2Key,
      expires_at: iso(upload.expiresAt),
      size_bytes: upload.sizeBytes,
      mime_type: upload.mimeType,
      filename: upload.filename,
    };
  }

  private async receive(key: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const upload = this.uploads.get(key);
    if (!upload) {
      request.resume();
      return finish(response, 404, "upload not found");
    }
    let received: Awaited<ReturnType<BlobDir["receive"]>>;
    try {
      received = await this.options.blobs.receive(request, this.maxUpload);
    } catch (error) {
      if (isHostError(error, "BLOB_TOO_LARGE")) return finish(response, 413, error.message);
      throw error;
    }
    if (upload.blob !== undefined) await this.options.blobs.remove(upload.blob);
    upload.blob = await this.options.blobs.keep(received.name);
    upload.sizeBytes = received.sizeBytes;
    response.writeHead(200, { etag: `"${received.md5}"`, "content-length": "0" }).end();
  }

  private async serve(key: string, response: ServerResponse): Promise<void> {
    const upload = this.uploads.get(key);
    if (!upload?.blob) return finish(response, 404, "upload not found");
    await this.options.blobs.send(response, upload.blob, { "content-type": upload.mimeType });
  }
}

/** The params of one mode of `host/uploadFile`. */
type UploadParams<Mode extends string> = Extract<ReverseParams<"host/uploadFile">, { mode: Mode }>;

/** `filename` and `mime_type`, the MIME type one this host takes. */
function checkFileFields(params: UploadParams<"inline" | "negotiate">): {
  filename: string;
  mimeType: string;
} {
  const { filename, mime_type: mimeType } = params;
  if (!MIME.test(mimeType)) {
    throw new RpcError(
      UploadErrorCode.MIME_REJECTED,
      `host/uploadFile: ${JSON.stringify(mimeType)} is not a MIME type`,
    );
  }
  return { filename, mimeType };
}

/** Raw byte count of a base64 string, computed without decoding it. */
function base64Size(encoded: string): number {
  const padding = encoded.endsWith("==") ? 2 : encoded.endsWith("=") ? 1 : 0;
  return Math.floor((encoded.length * 3) / 4) - padding;
}
