import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream, mkdirSync, rmSync } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { HostError } from "../../errors/host-error.js";

/** Bytes received by one PUT. */
export interface ReceivedBlob {
  /** The staged file's name inside the directory. */
  name: string;
  sizeBytes: number;
  /** Hex MD5 of the bytes, the S3-style ETag. */
  md5: string;
}

/**
 * A directory of blobs on disk (file objects, transient uploads). Blobs are written to a
 * staging name while they stream in, so a half-received body never replaces a good one.
 */
export class BlobDir {
  private readonly incoming: string;

  constructor(readonly root: string) {
    this.incoming = join(root, ".incoming");
    mkdirSync(this.incoming, { recursive: true });
  }

  /** Absolute path of a blob. */
  pathOf(name: string): string {
    return join(this.root, name);
  }

  /**
   * Streams a request body into a staged blob, hashing it on the way.
   * @throws HostError `BLOB_TOO_LARGE` past `maxBytes`: the rest of the body is read and dropped
   *   (so the client still gets an answer) and the partial file removed.
   */
  async receive(request: IncomingMessage, maxBytes: number): Promise<ReceivedBlob> {
    const name = join(".incoming", randomUUID());
    const path = this.pathOf(name);
    const hash = createHash("md5");
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > maxBytes) return callback();
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    try {
      await pipeline(request, meter, createWriteStream(path, { mode: 0o600 }));
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
    if (size > maxBytes) {
      await rm(path, { force: true });
      throw new HostError("BLOB_TOO_LARGE", `body of ${size} bytes exceeds the ${maxBytes} byte limit`);
    }
    return { name, sizeBytes: size, md5: hash.digest("hex") };
  }

  /** Moves a staged blob to a fresh permanent name and returns that name. */
  async keep(staged: string): Promise<string> {
    const name = randomUUID();
    await rename(this.pathOf(staged), this.pathOf(name));
    return name;
  }

  /** Writes bytes as a new blob and returns its name. */
  async write(bytes: Buffer): Promise<string> {
    const name = randomUUID();
    await pipeline(
      async function* () {
        yield bytes;
      },
      createWriteStream(this.pathOf(name), { mode: 0o600 }),
    );
    return name;
  }

  /** Deletes a blob (missing is fine). */
  async remove(name: string): Promise<void> {
    await rm(this.pathOf(name), { force: true });
  }

  /** Sends a blob as the response body; 404 when it is gone. */
  async send(response: ServerResponse, name: string, headers: Record<string, string>): Promise<void> {
    const path = this.pathOf(name);
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    response.writeHead(200, { ...headers, "content-length": String(size) });
    if (response.req.method === "HEAD") {
      response.end();
      return;
    }
    await pipeline(createReadStream(path), response);
  }

  /** Removes the whole directory. */
  destroy(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
