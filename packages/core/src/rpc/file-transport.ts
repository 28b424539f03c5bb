import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { uniqueId } from "./unique-id.js";

let privateDir: string | undefined;

/** A directory only this process's user can read, created on first use. */
function transportDir(base?: string): string {
  if (base) return base;
  privateDir ??= mkdtempSync(join(tmpdir(), "executa-"));
  return privateDir;
}

/**
 * Writes a whole serialized response into a fresh file (mode 0600) and returns its
 * path, for the `__file_transport` pointer. The host reads and deletes the file.
 */
export function writeTransportFile(serialized: string, dir?: string): string {
  const path = join(transportDir(dir), `executa-resp-${uniqueId()}.json`);
  writeFileSync(path, serialized, { mode: 0o600, flag: "wx" });
  return path;
}
