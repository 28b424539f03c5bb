import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { ZipFile } from "yazl";

/** One entry of a zip: a folder (its path ends with `/`) or a file and its bytes. */
export interface ZipEntry {
  /** Relative, `/`-separated; a folder's ends with `/`. */
  path: string;
  /** Unix permission bits (e.g. `0o755`); the file type is added. */
  mode: number;
  /** A file's bytes; none for a folder. */
  data?: Uint8Array;
}

/** Fixed entry time, so the same entries give the same bytes. */
const ENTRY_MTIME = new Date("2000-01-01T00:00:00Z");
const FILE_TYPE_REGULAR = 0o100000;
const FILE_TYPE_DIRECTORY = 0o040000;
/** zlib's default level: a binary of ~100 MiB takes a few seconds, a stronger level buys little. */
const COMPRESSION_LEVEL = 6;

/**
 * Writes `entries` to `path` as a zip, in their order, each with its Unix mode (unpackers
 * restore it) and a fixed time (DOS timestamps only): the same entries give the same bytes.
 * Files are deflated by Node's zlib, off the main thread (a JavaScript deflate of a ~100 MiB
 * binary takes several times as long).
 */
export async function writeZip(path: string, entries: readonly ZipEntry[]): Promise<void> {
  const zip = new ZipFile();
  const written = pipeline(zip.outputStream, createWriteStream(path));
  for (const entry of entries) {
    const attributes = { mtime: ENTRY_MTIME, forceDosTimestamp: true };
    if (entry.data === undefined) {
      zip.addEmptyDirectory(entry.path, { ...attributes, mode: FILE_TYPE_DIRECTORY | entry.mode });
    } else {
      const data = Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength);
      zip.addBuffer(data, entry.path, {
        ...attributes,
        mode: FILE_TYPE_REGULAR | entry.mode,
        compressionLevel: COMPRESSION_LEVEL,
      });
    }
  }
  zip.end();
  await written;
}
