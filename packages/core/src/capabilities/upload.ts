import { errorBrand } from "../errors/brand.js";
import { reverseMethodSpec } from "../wire/capability-families.js";
import { UploadErrorCode } from "../wire/error-codes.js";
import { INLINE_UPLOAD_MAX_BYTES } from "../wire/limits.js";
import { CapabilityError } from "./capability-error.js";
import type { CallOptions, Family } from "./family.js";
import type { HostCaller } from "./host-call.js";
import { PutError, putBytes, toBytes } from "./http-put.js";

/** A `host/uploadFile` call failed. Codes: {@link UploadErrorCode}. */
export class UploadError extends CapabilityError {
  /** The process-wide identity of this class (see `RpcError`). */
  static override readonly brand: symbol = errorBrand("UploadError");

  static readonly codes = UploadErrorCode;
  override readonly name = "UploadError";
  readonly family = "upload" as const;
  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(UploadErrorCode, code, message, data, options);
  }
  /** Over the inline limit (raised locally before sending) or over the host's size cap. */
  isTooLarge(): boolean {
    return this.code === UploadErrorCode.TOO_LARGE;
  }
  isMimeRejected(): boolean {
    return this.code === UploadErrorCode.MIME_REJECTED;
  }
  /** `confirm` of an `r2_key` the host does not know (or that belongs to another invoke). */
  isNotFound(): boolean {
    return this.code === UploadErrorCode.NOT_FOUND;
  }
  isUserDenied(): boolean {
    return this.code === UploadErrorCode.USER_DENIED;
  }
  /** `purpose` is not one of {@link UPLOAD_PURPOSES} (raised locally before sending, or by the host). */
  isPurposeRejected(): boolean {
    return this.code === UploadErrorCode.PURPOSE_REJECTED;
  }
}

export const uploadFamily: Family<UploadError> = {
  name: "upload",
  codes: UploadErrorCode,
  malformedReplyCode: UploadErrorCode.STORAGE_ERROR,
  error: (code, message, data, options) => new UploadError(code, message, data, options),
};

/**
 * The purposes `host/uploadFile` accepts (the protocol's whitelist): an image handed to a
 * model call, a style/composition reference, or a final asset for the user to keep.
 */
export const UPLOAD_PURPOSES = ["image_input", "image_reference", "user_artifact"] as const;

/** One of {@link UPLOAD_PURPOSES}. */
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/** What every upload mode takes besides the bytes. */
export interface UploadFileOptions extends CallOptions {
  filename: string;
  mimeType: string;
  /**
   * Why the file is uploaded: one of {@link UPLOAD_PURPOSES}. Any other value fails
   * locally with PURPOSE_REJECTED (-32206), as a real host would refuse it.
   */
  purpose?: UploadPurpose;
  metadata?: Record<string, unknown>;
}

export interface InlineUploadRequest extends UploadFileOptions {
  /** At most 8 MiB ({@link INLINE_UPLOAD_MAX_BYTES}); text is sent as UTF-8. */
  content: Uint8Array | string;
}

export interface NegotiateUploadRequest extends UploadFileOptions {
  sizeBytes: number;
}

export interface UploadBytesRequest extends InlineUploadRequest {
  /**
   * Payloads up to this size go inline (one round trip, base64 in the frame); larger
   * ones by negotiate → PUT → confirm. Default 1 MiB; capped at 8 MiB.
   */
  inlineMaxBytes?: number;
  /** Timeout of the HTTP PUT alone, ms (default 120 s; never past the invoke's deadline). */
  putTimeoutMs?: number;
}

/** Result of an inline upload or a confirm: a transient HTTPS link to the file. */
export interface HostUploadResult {
  download_url: string;
  r2_key: string;
  expires_at?: string;
  size_bytes?: number;
  [key: string]: unknown;
}

/** Result of negotiate: PUT the bytes to `put_url` with `headers`, then confirm `r2_key`. */
export interface UploadNegotiation {
  put_url: string;
  headers?: Record<string, string>;
  r2_key: string;
  expires_at?: string;
  [key: string]: unknown;
}

const UPLOAD_FILE = reverseMethodSpec("host/uploadFile");
/** Default timeouts of the two modes that move less than an inline upload (the method's default). */
const NEGOTIATE_TIMEOUT_MS = 60_000;
const CONFIRM_TIMEOUT_MS = 30_000;
const PUT_TIMEOUT_MS = 120_000;
const DEFAULT_INLINE_MAX_BYTES = 1024 * 1024;

/**
 * `ctx.host.upload`: transient uploads (`host.upload`) that come back as an HTTPS link,
 * e.g. to hand an image to `image.edit` or to a chat message.
 */
export class UploadClient {
  /** Built with the invoke's host caller by core (`ctx.host`); plugin code never constructs one. @internal */
  constructor(private readonly caller: HostCaller) {}

  /**
   * Uploads `content` in the request itself (base64). More than 8 MiB fails locally with
   * TOO_LARGE (-32204) before anything is sent; use {@link UploadClient.uploadBytes} for any size.
   */
  async inline(request: InlineUploadRequest): Promise<HostUploadResult> {
    this.caller.ensureAvailable(uploadFamily, UPLOAD_FILE);
    const { content, filename, mimeType, purpose, metadata, ...call } = request;
    checkPurpose(purpose);
    const bytes = this.bytes(content);
    if (bytes.byteLength > INLINE_UPLOAD_MAX_BYTES) {
      throw new UploadError(
        UploadErrorCode.TOO_LARGE,
        `host/uploadFile inline: ${bytes.byteLength} bytes exceed the ${INLINE_UPLOAD_MAX_BYTES}-byte inline limit; ` +
          "use uploadBytes (negotiate → PUT → confirm) instead",
        { size_bytes: bytes.byteLength, limit_bytes: INLINE_UPLOAD_MAX_BYTES },
      );
    }
    const reply = await this.caller.call(
      uploadFamily,
      UPLOAD_FILE,
      {
        mode: "inline",
        ...this.file(filename, mimeType),
        content_b64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
        purpose,
        metadata,
      },
      call,
    );
    // Hosts may omit fields the public type names; the ones present are checked.
    return reply as HostUploadResult;
  }

  /** Asks for a presigned PUT URL for `sizeBytes` bytes. */
  async negotiate(request: NegotiateUploadRequest): Promise<UploadNegotiation> {
    const { sizeBytes, filename, mimeType, purpose, metadata, ...call } = request;
    checkPurpose(purpose);
    if (!Number.isInteger(sizeBytes) || sizeBytes < 0) {
      throw new UploadError(
        UploadErrorCode.INVALID_REQUEST,
        "host/uploadFile negotiate: sizeBytes must be an integer ≥ 0",
      );
    }
    const reply = await this.caller.call(
      uploadFamily,
      UPLOAD_FILE,
      { mode: "negotiate", ...this.file(filename, mimeType), size_bytes: sizeBytes, purpose, metadata },
      call,
      NEGOTIATE_TIMEOUT_MS,
    );
    // Hosts may omit fields the public type names; the ones present are checked.
    return reply as UploadNegotiation;
  }

  /** Confirms a presigned upload finished; answers the download link. */
  async confirm(r2Key: string, options: CallOptions = {}): Promise<HostUploadResult> {
    if (typeof r2Key !== "string" || r2Key === "") {
      throw new UploadError(
        UploadErrorCode.INVALID_REQUEST,
        "host/uploadFile confirm: r2Key must be a non-empty string",
      );
    }
    const reply = await this.caller.call(
      uploadFamily,
      UPLOAD_FILE,
      { mode: "confirm", r2_key: r2Key },
      options,
      CONFIRM_TIMEOUT_MS,
    );
    // Hosts may omit fields the public type names; the ones present are checked.
    return reply as HostUploadResult;
  }

  /**
   * Uploads `content` of any size: inline when it is small (see `inlineMaxBytes`),
   * else negotiate → HTTP PUT with the returned headers → confirm. A failed PUT rejects
   * with STORAGE_ERROR (-32207), one that runs out of time with TIMEOUT (-32208).
   */
  async uploadBytes(request: UploadBytesRequest): Promise<HostUploadResult> {
    const { inlineMaxBytes = DEFAULT_INLINE_MAX_BYTES, putTimeoutMs, ...rest } = request;
    this.caller.ensureAvailable(uploadFamily, UPLOAD_FILE);
    checkPurpose(rest.purpose);
    const bytes = this.bytes(rest.content);
    if (bytes.byteLength <= Math.min(inlineMaxBytes, INLINE_UPLOAD_MAX_BYTES)) {
      return this.inline({ ...rest, content: bytes });
    }
    const { content: _content, timeoutMs, signal, ...file } = rest;
    const ticket = await this.negotiate({ ...file, sizeBytes: bytes.byteLength, timeoutMs, signal });
    if (typeof ticket.put_url !== "string" || typeof ticket.r2_key !== "string") {
      throw new UploadError(
        UploadErrorCode.PRESIGN_FAILED,
        "host/uploadFile negotiate: the host answered without put_url and r2_key",
        { result: ticket },
      );
    }
    const budget = this.caller.budget(uploadFamily, "upload.uploadBytes PUT", PUT_TIMEOUT_MS, {
      timeoutMs: putTimeoutMs,
      signal,
    });
    try {
      await putBytes(ticket.put_url, bytes, ticket.headers, budget);
    } catch (error) {
      if (!(error instanceof PutError)) throw error;
      const code = error.failure.kind === "timeout" ? UploadErrorCode.TIMEOUT : UploadErrorCode.STORAGE_ERROR;
      throw new UploadError(code, `upload.uploadBytes: ${error.message}`, error.failure, { cause: error });
    }
    return this.confirm(ticket.r2_key, { timeoutMs, signal });
  }

  private bytes(content: unknown): Uint8Array {
    if (typeof content !== "string" && !(content instanceof Uint8Array)) {
      throw new UploadError(
        UploadErrorCode.INVALID_REQUEST,
        "host/uploadFile: content must be a Uint8Array or a string",
      );
    }
    return toBytes(content);
  }

  private file(filename: unknown, mimeType: unknown): { filename: string; mime_type: string } {
    if (typeof filename !== "string" || filename === "") {
      throw new UploadError(
        UploadErrorCode.INVALID_REQUEST,
        "host/uploadFile: filename must be a non-empty string",
      );
    }
    if (typeof mimeType !== "string" || mimeType === "") {
      throw new UploadError(
        UploadErrorCode.INVALID_REQUEST,
        "host/uploadFile: mimeType must be a non-empty string",
      );
    }
    return { filename, mime_type: mimeType };
  }
}

/** Throws PURPOSE_REJECTED (-32206) unless `purpose` is absent or on the whitelist. */
function checkPurpose(purpose: unknown): void {
  if (purpose === undefined || (UPLOAD_PURPOSES as readonly unknown[]).includes(purpose)) return;
  throw new UploadError(
    UploadErrorCode.PURPOSE_REJECTED,
    `host/uploadFile: purpose ${JSON.stringify(purpose)} is not in the protocol whitelist (${UPLOAD_PURPOSES.join(", ")})`,
    { purpose, allowed: [...UPLOAD_PURPOSES] },
  );
}
