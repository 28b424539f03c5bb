import { DISPLAY_LIMITS } from "@executa/core";
import type { NotesPage } from "./notes/note-store.js";

const PREVIEW_CHARS = 120;
// Room kept in the block for the "… more" line.
const BLOCK_BUDGET = DISPLAY_LIMITS.maxBlockChars - 200;

/** A Markdown list of a page of notes, for the chat UI (`_display`), within one block's limit. */
export function notesMarkdown(page: NotesPage, tag: string | undefined): string {
  const where = tag === undefined ? "" : ` tagged \`${tag}\``;
  if (page.notes.length === 0) return `*No notes${where}${page.next_cursor ? " on this page" : ""}.*`;
  const lines = [`**${page.notes.length} note${page.notes.length === 1 ? "" : "s"}${where}**`];
  let length = lines[0]!.length;
  let shown = 0;
  for (const note of page.notes) {
    const tags = note.tags.map((name) => `\`${name}\``).join(" ");
    const line = `- **#${note.id}** · ${note.created_at.slice(0, 16).replace("T", " ")}${tags ? ` · ${tags}` : ""} — ${preview(note.text)}`;
    if (length + line.length + 1 > BLOCK_BUDGET) break;
    lines.push(line);
    length += line.length + 1;
    shown++;
  }
  if (shown < page.notes.length) lines.push(`- … ${page.notes.length - shown} more`);
  if (page.next_cursor) lines.push("", "*More notes follow.*");
  return lines.join("\n");
}

/** The first line of a text, cut to a preview length, with Markdown's active characters escaped. */
function preview(text: string): string {
  const first = text.trim().split("\n", 1)[0] ?? "";
  const chars = [...first];
  const cut = chars.length > PREVIEW_CHARS ? `${chars.slice(0, PREVIEW_CHARS).join("")}…` : first;
  return escapeMarkdown(cut) + (text.trim().includes("\n") && cut === first ? " …" : "");
}

/** Backslash-escapes the characters Markdown would interpret. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!|<>~]/g, "\\$&");
}

/** A Markdown link to a downloadable attachment. */
export function linkMarkdown(path: string, url: string, expiresAt: string | undefined): string {
  return `📎 [${escapeMarkdown(path)}](<${url}>)${expiresAt ? ` — link valid until ${expiresAt}` : ""}`;
}
