import { readFile, stat, unlink } from "node:fs/promises";

/** Largest file-transport file the host reads by default (256 MiB). */
export const DEFAULT_MAX_FILE_TRANSPORT_BYTES = 256 * 1024 * 1024;

/**
 * Reads the JSON-RPC response a plugin wrote to a file-transport file and deletes the
 * file (spec: "The Agent reads the file, decodes the response inside it, then deletes
 * the file"). The file is deleted even when it is unusable, so none are left behind.
 *
 * @returns the file's text.
 * @throws Error when the path is not a regular file, is too large, or cannot be read.
 */
export async function takeTransportFile(
  path: string,
  maxBytes = DEFAULT_MAX_FILE_TRANSPORT_BYTES,
): Promise<string> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new Error(`${path} is not a regular file`);
    if (info.size > maxBytes)
      throw new Error(`${path} holds ${info.size} bytes, above the ${maxBytes} byte limit`);
    return await readFile(path, "utf8");
  } finally {
    await unlink(path).catch(() => {});
  }
}
