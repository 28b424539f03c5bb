import { uniqueId } from "./unique-id.js";

// Loaded on first use: a Bun executable pays ~5 ms at startup for each of these modules,
// and most plugins never answer by file.
const fs = () => process.getBuiltinModule("node:fs");
const join = (...parts: string[]) => process.getBuiltinModule("node:path").join(...parts);

let privateDir: string | undefined;

/** A directory only this process's user can read, created on first use. */
function transportDir(base?: string): string {
  if (base) return base;
  privateDir ??= fs().mkdtempSync(join(process.getBuiltinModule("node:os").tmpdir(), "executa-"));
  return privateDir;
}

/**
 * Removes the private directory when it is empty (the host read and deleted every file);
 * one still holding an answer the host has not read yet is left alone. A later file
 * transport makes a new directory. Called when a server stops and when the process exits.
 */
export function releaseTransportDir(): void {
  if (privateDir === undefined) return;
  try {
    fs().rmdirSync(privateDir);
    privateDir = undefined;
  } catch (error) {
    // ENOTEMPTY: an answer is still waiting for the host; ENOENT: someone removed it.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") privateDir = undefined;
  }
}

/**
 * Writes a whole serialized response into a fresh file (mode 0600) and returns its
 * path, for the `__file_transport` pointer. The host reads and deletes the file.
 */
export function writeTransportFile(serialized: string, dir?: string): string {
  const path = join(transportDir(dir), `executa-resp-${uniqueId()}.json`);
  fs().writeFileSync(path, serialized, { mode: 0o600, flag: "wx" });
  return path;
}
