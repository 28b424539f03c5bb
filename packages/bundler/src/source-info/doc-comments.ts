import type * as ts from "typescript";
import type { TypeScriptModule } from "./load-typescript.js";

/** A doc comment: its text (tags removed) and its tags (`true` for a tag without text). */
export interface DocComment {
  text?: string;
  tags: ReadonlyMap<string, string | true>;
}

const NO_DOC: DocComment = { tags: new Map() };

/**
 * The doc comment directly before `node`: the JSDoc TypeScript attaches to it, else a
 * `/** … *\/` comment on the same line as the previous token (`(/** City *\/ city: string`),
 * which TypeScript treats as a trailing comment of that token.
 */
export function docOf(tsm: TypeScriptModule, node: ts.Node): DocComment {
  const attached = tsm
    .getJSDocCommentsAndTags(node)
    .filter((doc): doc is ts.JSDoc => tsm.isJSDoc(doc) && doc.parent === node);
  const last = attached[attached.length - 1];
  if (last) {
    const tags = new Map<string, string | true>();
    for (const tag of last.tags ?? [])
      tags.set(tag.tagName.text, clean(tsm.getTextOfJSDocComment(tag.comment)) ?? true);
    const text = clean(tsm.getTextOfJSDocComment(last.comment));
    return text ? { text, tags } : { tags };
  }
  return inlineDoc(tsm, node);
}

/** The text of the `@param name` tag of the function that declares `parameter`. */
export function paramTagText(tsm: TypeScriptModule, parameter: ts.ParameterDeclaration): string | undefined {
  for (const tag of tsm.getJSDocParameterTags(parameter)) {
    const text = clean(tsm.getTextOfJSDocComment(tag.comment)?.replace(/^\s*-\s*/, ""));
    if (text) return text;
  }
  return undefined;
}

function inlineDoc(tsm: TypeScriptModule, node: ts.Node): DocComment {
  const sourceText = node.getSourceFile().text;
  const start = node.getStart();
  const comments = tsm.getTrailingCommentRanges(sourceText, node.pos) ?? [];
  const doc = comments.filter(
    (range) => sourceText.startsWith("/**", range.pos) && sourceText.slice(range.end, start).trim() === "",
  )[0];
  return doc ? parseDocComment(sourceText.slice(doc.pos + 3, doc.end - 2)) : NO_DOC;
}

/** Parses the inside of a `/** … *\/` comment: leading `*`s dropped, text up to the first tag, then `@tag text` pairs. */
export function parseDocComment(body: string): DocComment {
  const lines = body.split(/\r?\n/).map((line) => line.replace(/^\s*\*\s?/, ""));
  const [head = "", ...tagParts] = lines.join("\n").split(/(?:^|\s)@(?=[A-Za-z])/);
  const tags = new Map<string, string | true>();
  for (const part of tagParts) {
    const [, name = "", rest] = /^(\w+)\s*([\s\S]*)$/.exec(part) ?? [];
    if (name) tags.set(name, clean(rest) ?? true);
  }
  const text = clean(head);
  return text ? { text, tags } : { tags };
}

/**
 * Trimmed text with soft-wrapped lines joined by a space (a manifest description reads as
 * one paragraph); blank lines and lines starting a list item (`-`, `*`, `1.`) stay breaks.
 */
function clean(text: string | undefined): string | undefined {
  const trimmed = text?.trim().replace(/[ \t]*\n[ \t]*(?!\n|[-*] |\d+[.)] )(?<!\n[ \t]*\n[ \t]*)/g, " ");
  return trimmed ? trimmed : undefined;
}
