import { DISPLAY_LIMITS } from "@executa/core";
import type { NoteMatch } from "./notes/rank.js";
import type { Summary } from "./summary/summarize.js";

const PREVIEW_CHARS = 120;
// Room kept in the block for the "… more" line.
const BLOCK_BUDGET = DISPLAY_LIMITS.maxBlockChars - 200;

const SENTIMENT_ICONS: Record<Summary["sentiment"], string> = {
  positive: "🙂",
  neutral: "😐",
  negative: "🙁",
  mixed: "🤔",
};

/** The summary as Markdown for the chat UI (`_display`), within one block's limit. */
export function summaryMarkdown(summary: Summary): string {
  const head = [`**${escapeMarkdown(summary.title)}**`, ""];
  const tail = ["", `${SENTIMENT_ICONS[summary.sentiment]} ${summary.sentiment}`];
  const points = summary.points.map((point) => `- ${escapeMarkdown(point)}`);
  return fitLines(head, points, tail, "point");
}

/** The search hits as a Markdown list for the chat UI, within one block's limit. */
export function searchMarkdown(query: string, matches: readonly NoteMatch[]): string {
  const what = `*${escapeMarkdown(preview(query))}*`;
  if (matches.length === 0) return `No notes match ${what}.`;
  const head = [`**${matches.length} note${matches.length === 1 ? "" : "s"}** for ${what}`];
  const lines = matches.map(
    (match) =>
      `1. \`${match.score.toFixed(3)}\` **${escapeMarkdown(match.id)}** — ${escapeMarkdown(preview(match.text))}`,
  );
  return fitLines(head, lines, [], "note");
}

/** `head`, as many of `lines` as fit the block budget (then a "… N more" line), `tail`. */
function fitLines(head: string[], lines: readonly string[], tail: string[], noun: string): string {
  const out = [...head];
  let length = [...head, ...tail].reduce((sum, line) => sum + line.length + 1, 0);
  let shown = 0;
  for (const line of lines) {
    if (length + line.length + 1 > BLOCK_BUDGET) break;
    out.push(line);
    length += line.length + 1;
    shown++;
  }
  const hidden = lines.length - shown;
  if (hidden > 0) out.push(`- … ${hidden} more ${noun}${hidden === 1 ? "" : "s"}`);
  return [...out, ...tail].join("\n");
}

/** The first line of a text, cut to a preview length. */
function preview(text: string): string {
  const trimmed = text.trim();
  const first = trimmed.split("\n", 1)[0] ?? "";
  const chars = [...first];
  if (chars.length > PREVIEW_CHARS) return `${chars.slice(0, PREVIEW_CHARS).join("")}…`;
  return first.length < trimmed.length ? `${first} …` : first;
}

/** Backslash-escapes the characters Markdown would interpret. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!|<>~]/g, "\\$&");
}
