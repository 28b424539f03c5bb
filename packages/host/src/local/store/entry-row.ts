import type { EntryKind } from "./entry-kind.js";
import type { Entry } from "./entry-store.js";

/**
 * One row of the `entries` table, as both databases return it. PostgreSQL's driver returns
 * its 64-bit integers (the times, the size) as strings, hence the numbers' string form.
 */
export interface EntryRow {
  namespace: string;
  kind: EntryKind;
  key: string;
  value: string | null;
  blob: string | null;
  content_type: string | null;
  metadata: string | null;
  etag: string;
  generation: number;
  size_bytes: number | string;
  created_at: number | string;
  updated_at: number | string;
  expires_at: number | string | null;
}

/** The table's columns, in the order {@link toColumns} gives their values. */
export const ENTRY_COLUMNS =
  "namespace, kind, key, value, blob, content_type, metadata, etag, generation, size_bytes, created_at, updated_at, expires_at";

export function fromRow(row: EntryRow): Entry {
  return {
    namespace: row.namespace,
    kind: row.kind,
    key: row.key,
    valueJson: row.value,
    blob: row.blob,
    contentType: row.content_type,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    etag: row.etag,
    generation: row.generation,
    sizeBytes: Number(row.size_bytes),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
  };
}

/** An entry's values in the order of {@link ENTRY_COLUMNS}. */
export function toColumns(entry: Entry): (string | number | null)[] {
  return [
    entry.namespace,
    entry.kind,
    entry.key,
    entry.valueJson,
    entry.blob,
    entry.contentType,
    entry.metadata === null ? null : JSON.stringify(entry.metadata),
    entry.etag,
    entry.generation,
    entry.sizeBytes,
    entry.createdAt,
    entry.updatedAt,
    entry.expiresAt,
  ];
}
