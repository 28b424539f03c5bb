/** What an entry holds: a KV value, or a file's metadata (its bytes live on disk). */
export type EntryKind = "kv" | "file";
