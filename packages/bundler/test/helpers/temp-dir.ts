import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh temp folder and a function that removes it. */
export async function tempDir(prefix: string): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `executa-bundler-${prefix}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
