import { randomBytes } from "node:crypto";
import { open, realpath, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

const PERMISSION_BITS = 0o7777;
const TEMP_SUFFIX_BYTES = 6;

/**
 * Replaces the content of `file` (of the file it links to, for a symbolic link) with
 * `content`, keeping its permission bits: the new content goes to a temporary file in
 * the same folder, is flushed to disk, and is renamed over the file, so the file holds
 * either the old or the new bytes, never a mix.
 */
export async function replaceFile(file: string, content: Buffer): Promise<void> {
  const path = await realpath(file);
  const { mode } = await stat(path);
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${randomBytes(TEMP_SUFFIX_BYTES).toString("hex")}.tmp`,
  );
  try {
    const handle = await open(temporary, "wx", mode & PERMISSION_BITS);
    try {
      await handle.writeFile(content);
      // The mode given to open() passes through the umask; the file's own must be kept whole.
      await handle.chmod(mode & PERMISSION_BITS);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new Error(`cannot write ${path}: ${(error as Error).message}`, { cause: error });
  }
}
