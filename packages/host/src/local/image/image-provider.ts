import { createHash, randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { ImageErrorCode, JsonRpcErrorCode, type ReverseParams, RpcError } from "@executa/core";
import type { ReverseCall, ReverseProvider } from "../../providers/provider.js";
import { type Clock, systemClock } from "../clock.js";
import { finish, type LoopbackServer } from "../http/loopback-server.js";
import { InvokeTally } from "../invoke-tally.js";
import { invalidParams, paramsOf } from "../method-params.js";
import { promptImage } from "./prompt-art.js";

/** The local image host's caps (defaults after the reference host's grant). */
export interface ImageLimits {
  /** Largest `n` of one call. Default 4; beyond → -32106. */
  maxImagesPerRequest?: number;
  /** Images one invoke may produce. Default 8; beyond → -32106. */
  maxImagesPerInvoke?: number;
  /** Images the whole session (the provider's life, a "day") may produce. Default 50; beyond → -32102. */
  imagesQuota?: number;
  /** Largest width or height. Default 2048. */
  maxSide?: number;
}

/** Options of {@link ImageProvider}. */
export interface ImageProviderOptions extends ImageLimits {
  server: LoopbackServer;
  /** Life of the image URLs. Default 1 h. */
  ttlSeconds?: number;
  now?: Clock;
}

/** The `model` the local provider answers with. */
export const LOCAL_IMAGE_MODEL = "local-stripes-v1";
const ROUTE = "images";
const SIZE = /^(\d{1,5})x(\d{1,5})$/;
const DEFAULT_SIZE = "1024x1024";

/** The params of `image/generate`, or of `image/edit` (which adds the image and mask). */
type ImageParams = ReverseParams<"image/generate"> & Partial<ReverseParams<"image/edit">>;

interface ImageJob {
  prompt: string;
  n: number;
  width: number;
  height: number;
}

/**
 * `image/generate` and `image/edit`: deterministic PNGs per prompt (and, for an edit, per
 * source image), served by the loopback server at signed URLs. Enforces the per-call,
 * per-invoke and session caps with the reference codes; fetches `image_url`, `mask_url`
 * and `reference_image_urls` as a real host does (-32314 when that fails).
 */
export class ImageProvider implements ReverseProvider {
  private readonly images = new Map<string, { png: Buffer; expiresAt: number }>();
  private readonly perInvoke = new InvokeTally(() => ({ images: 0 }));
  private used = 0;
  private readonly limits: Required<ImageLimits>;
  private readonly now: Clock;
  private readonly ttlMs: number;

  constructor(private readonly options: ImageProviderOptions) {
    this.limits = {
      maxImagesPerRequest: options.maxImagesPerRequest ?? 4,
      maxImagesPerInvoke: options.maxImagesPerInvoke ?? 8,
      imagesQuota: options.imagesQuota ?? 50,
      maxSide: options.maxSide ?? 2048,
    };
    this.now = options.now ?? systemClock;
    this.ttlMs = (options.ttlSeconds ?? 3600) * 1000;
    options.server.route(ROUTE, { GET: async (id, _request, response) => this.serve(id, response) });
  }

  async handle(call: ReverseCall): Promise<unknown> {
    if (call.method !== "image/generate" && call.method !== "image/edit") {
      throw new RpcError(JsonRpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${call.method}`);
    }
    const params: ImageParams =
      call.method === "image/edit" ? paramsOf(call, "image/edit") : paramsOf(call, "image/generate");
    const job = this.readJob(params, call);
    const sources = await this.fetchSources(params, call);
    this.reserve(call, job.n);
    const seed = sources.join("|");
    const { width, height } = job;
    const images = await Promise.all(
      Array.from({ length: job.n }, async (_, index) => ({
        url: await this.store(promptImage(`${call.method}|${job.prompt}|${seed}|${index}`, width, height)),
        mimeType: "image/png",
        width,
        height,
      })),
    );
    return {
      images,
      model: LOCAL_IMAGE_MODEL,
      quota_used: { images_today: this.used, images_quota: this.limits.imagesQuota },
    };
  }

  private readJob(params: ImageParams, call: ReverseCall): ImageJob {
    const { method } = call;
    const { prompt, n = 1, size = DEFAULT_SIZE } = params;
    if (n > this.limits.maxImagesPerRequest) {
      throw new RpcError(
        ImageErrorCode.MAX_IMAGES,
        `${method}: n=${n} exceeds the ${this.limits.maxImagesPerRequest} images per request cap`,
        { n, max_images: this.limits.maxImagesPerRequest },
      );
    }
    const match = SIZE.exec(size);
    const width = Number(match?.[1]);
    const height = Number(match?.[2]);
    if (!match || width < 1 || height < 1 || width > this.limits.maxSide || height > this.limits.maxSide) {
      throw invalidParams(
        call,
        `size must be "WIDTHxHEIGHT" with sides from 1 to ${this.limits.maxSide}, got ${JSON.stringify(size)}`,
      );
    }
    return { prompt, n, width, height };
  }

  /** Fetches the images an edit or a generation refers to; their digests seed the output. */
  private async fetchSources(params: ImageParams, call: ReverseCall): Promise<string[]> {
    const urls = [
      ...(call.method === "image/edit" && params.image_url !== undefined ? [params.image_url] : []),
      ...(call.method === "image/edit" && params.mask_url !== undefined ? [params.mask_url] : []),
      ...(params.reference_image_urls ?? []),
    ];
    for (const url of urls) {
      if (!/^https?:\/\//.test(url))
        throw invalidParams(call, `${JSON.stringify(url)} is not an http(s) URL`);
    }
    return Promise.all(urls.map((url) => fetchDigest(url, call)));
  }

  private reserve(call: ReverseCall, n: number): void {
    const invoke = this.perInvoke.of(call.context);
    const invokeUsed = invoke.images;
    if (invokeUsed + n > this.limits.maxImagesPerInvoke) {
      throw new RpcError(
        ImageErrorCode.MAX_IMAGES,
        `${call.method}: this invoke already made ${invokeUsed} images (cap ${this.limits.maxImagesPerInvoke})`,
        { images_used: invokeUsed, max_images: this.limits.maxImagesPerInvoke },
      );
    }
    if (this.used + n > this.limits.imagesQuota) {
      throw new RpcError(
        ImageErrorCode.QUOTA_EXCEEDED,
        `${call.method}: image quota exhausted (${this.used} of ${this.limits.imagesQuota} used)`,
        { images_today: this.used, images_quota: this.limits.imagesQuota },
      );
    }
    invoke.images += n;
    this.used += n;
  }

  private async store(png: Buffer): Promise<string> {
    const id = `${randomUUID()}.png`;
    const expiresAt = this.now() + this.ttlMs;
    this.images.set(id, { png, expiresAt });
    return this.options.server.presign("GET", ROUTE, id, expiresAt);
  }

  private serve(id: string, response: ServerResponse): void {
    const image = this.images.get(id);
    if (!image || image.expiresAt <= this.now()) {
      this.images.delete(id);
      finish(response, 404, "image not found");
      return;
    }
    response.writeHead(200, { "content-type": "image/png", "content-length": image.png.length });
    response.end(image.png);
  }
}

/** SHA-256 of the body at `url`; -32314 when it cannot be fetched. */
async function fetchDigest(url: string, call: ReverseCall): Promise<string> {
  try {
    const signal = AbortSignal.any([
      call.context.signal,
      AbortSignal.timeout(Math.min(call.context.timeoutMs, 15_000)),
    ]);
    const response = await fetch(url, { signal });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return createHash("sha256")
      .update(Buffer.from(await response.arrayBuffer()))
      .digest("hex");
  } catch (error) {
    throw new RpcError(
      ImageErrorCode.REFERENCE_FETCH_FAILED,
      `${call.method}: could not fetch ${url}: ${(error as Error).message}`,
      { url },
    );
  }
}
