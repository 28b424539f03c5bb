import type { EntryKind } from "./entry-kind.js";

/** Where a listing stopped: the last (key, kind) of a page. */
export interface CursorPosition {
  key: string;
  kind: EntryKind;
}

/** An opaque cursor for the page after `position`. */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.key, position.kind]), "utf8").toString("base64url");
}

/** @throws TypeError when `cursor` was not made by {@link encodeCursor}. */
export function decodeCursor(cursor: string): CursorPosition {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new TypeError("cursor is not one this host returned");
  }
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    typeof value[0] !== "string" ||
    (value[1] !== "kv" && value[1] !== "file")
  ) {
    throw new TypeError("cursor is not one this host returned");
  }
  return { key: value[0], kind: value[1] };
}
