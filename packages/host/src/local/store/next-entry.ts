import { randomBytes } from "node:crypto";
import type { EntryKind } from "./entry-kind.js";
import type { Entry, EntryWrite } from "./entry-store.js";

/**
 * The entry a write makes over `current` (the live entry, if any): the next generation,
 * the first write's creation time, a fresh random etag unless the write brings one.
 */
export function nextEntry(
  namespace: string,
  kind: EntryKind,
  key: string,
  write: EntryWrite,
  current: Entry | undefined,
  now: number,
): Entry {
  return {
    namespace,
    kind,
    key,
    valueJson: write.valueJson ?? null,
    blob: write.blob ?? null,
    contentType: write.contentType ?? null,
    metadata: write.metadata ?? null,
    etag: write.etag ?? randomBytes(12).toString("hex"),
    generation: (current?.generation ?? 0) + 1,
    sizeBytes: write.sizeBytes,
    createdAt: current?.createdAt ?? now,
    updatedAt: now,
    expiresAt: write.expiresAt ?? null,
  };
}
