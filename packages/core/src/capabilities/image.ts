import { errorBrand } from "../errors/brand.js";
import { reverseMethodSpec } from "../wire/capability-families.js";
import { ImageErrorCode } from "../wire/error-codes.js";
import { CapabilityError } from "./capability-error.js";
import type { CallOptions, Family } from "./family.js";
import type { HostCaller } from "./host-call.js";
import type { ModelPreferences } from "./sampling-messages.js";

/** An `image/*` call failed. Codes: {@link ImageErrorCode}. */
export class ImageError extends CapabilityError {
  /** The process-wide identity of this class (see `RpcError`). */
  static override readonly brand: symbol = errorBrand("ImageError");

  static readonly codes = ImageErrorCode;
  override readonly name = "ImageError";
  readonly family = "image" as const;
  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(ImageErrorCode, code, message, data, options);
  }
  isUserDenied(): boolean {
    return this.code === ImageErrorCode.USER_DENIED;
  }
  /** The provider cannot do what was asked: edits, masks, or this many images. */
  isUnsupported(): boolean {
    return (
      this.code === ImageErrorCode.EDIT_NOT_SUPPORTED ||
      this.code === ImageErrorCode.MASK_UNSUPPORTED ||
      this.code === ImageErrorCode.N_UNSUPPORTED
    );
  }
  /** The host could not fetch a reference or source image URL. */
  isReferenceFetchFailed(): boolean {
    return this.code === ImageErrorCode.REFERENCE_FETCH_FAILED;
  }
}

export const imageFamily: Family<ImageError> = {
  name: "image",
  codes: ImageErrorCode,
  malformedReplyCode: ImageErrorCode.PROVIDER_ERROR,
  error: (code, message, data, options) => new ImageError(code, message, data, options),
};

export interface ImageGenerateRequest extends CallOptions {
  prompt: string;
  /** How many images; host default 1. */
  n?: number;
  /** e.g. "1024x1024". */
  size?: string;
  referenceImageUrls?: string[];
  modelPreferences?: ModelPreferences;
  metadata?: Record<string, unknown>;
}

export interface ImageEditRequest extends CallOptions {
  /** HTTPS URL of the source image (e.g. from `upload.uploadBytes`). */
  imageUrl: string;
  prompt: string;
  /** Only masked pixels change; without it the whole image is edited. */
  maskUrl?: string;
  n?: number;
  size?: string;
  modelPreferences?: ModelPreferences;
  metadata?: Record<string, unknown>;
}

/** Result of `image/generate` and `image/edit`. */
export interface ImageResult {
  images: { url: string; mimeType?: string; width?: number; height?: number; [key: string]: unknown }[];
  model?: string;
  quota_used?: unknown;
  [key: string]: unknown;
}

const GENERATE = reverseMethodSpec("image/generate");
const EDIT = reverseMethodSpec("image/edit");

/** `ctx.host.image`: image generation (`llm.image`) and editing (`llm.image.edit`) by the host. */
export class ImageClient {
  /** Built with the invoke's host caller by core (`ctx.host`); plugin code never constructs one. @internal */
  constructor(private readonly caller: HostCaller) {}

  async generate(request: ImageGenerateRequest): Promise<ImageResult> {
    this.caller.ensureAvailable(imageFamily, GENERATE);
    const { prompt, n, size, referenceImageUrls, modelPreferences, metadata, ...call } = request;
    const params = {
      prompt: text(GENERATE.method, "prompt", prompt),
      n: count(GENERATE.method, n),
      size,
      reference_image_urls: referenceImageUrls,
      modelPreferences,
      metadata,
    };
    return normalize(await this.caller.call(imageFamily, GENERATE, params, call));
  }

  async edit(request: ImageEditRequest): Promise<ImageResult> {
    this.caller.ensureAvailable(imageFamily, EDIT);
    const { imageUrl, prompt, maskUrl, n, size, modelPreferences, metadata, ...call } = request;
    const params = {
      image_url: text(EDIT.method, "imageUrl", imageUrl),
      prompt: text(EDIT.method, "prompt", prompt),
      mask_url: maskUrl,
      n: count(EDIT.method, n),
      size,
      modelPreferences,
      metadata,
    };
    return normalize(await this.caller.call(imageFamily, EDIT, params, call));
  }
}

function text(method: string, name: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new ImageError(ImageErrorCode.INVALID_REQUEST, `${method}: ${name} must be a non-empty string`);
  }
  return value;
}

function count(method: string, n: unknown): number | undefined {
  if (n === undefined) return undefined;
  if (!Number.isInteger(n) || (n as number) < 1) {
    throw new ImageError(ImageErrorCode.INVALID_REQUEST, `${method}: n must be an integer ≥ 1`);
  }
  return n as number;
}

/** A reply (its shape already checked) with `images` always a list. */
function normalize(result: Record<string, unknown>): ImageResult {
  return { ...result, images: Array.isArray(result.images) ? (result.images as ImageResult["images"]) : [] };
}
