/** One line parsed as JSON, with what `JSON.parse` alone would lose. */
export interface ParsedFrame {
  /** The parsed value, as `JSON.parse` returns it. */
  value: unknown;
  /**
   * The exact source text of the top-level `id` when it is a number whose parsed value
   * does not write back as the same text (e.g. `9007199254740993`, `1e2`); else absent.
   */
  idText?: string;
}

/**
 * Parses one frame line like `JSON.parse` (and throws like it), but keeps the source text
 * of a numeric id that a JavaScript number cannot hold exactly, so the answer can echo
 * the id the peer wrote: ids above 2^53 are legal JSON-RPC, and an answer with a rounded
 * id matches no request.
 */
export function parseFrame(text: string): ParsedFrame {
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { value };
  const id = (value as Record<string, unknown>).id;
  if (typeof id !== "number") return { value };
  const written = JSON.stringify(id);
  // Hosts write the id before the params: finding it there spares scanning the whole
  // frame, per frame, for a duplicate `id` that no sane host writes.
  if (startsWithId(text, written) || memberText(text, "id", true) === written) return { value };
  const raw = topLevelMemberText(text, "id");
  return raw === undefined || raw === written ? { value } : { value, idText: raw };
}

const CANONICAL_HEAD = '{"jsonrpc":"2.0","id":';

/** Whether the frame begins `{"jsonrpc":"2.0","id":<written>` then `,` or `}`: the usual shape, checked without a scan. */
function startsWithId(text: string, written: string): boolean {
  if (!text.startsWith(CANONICAL_HEAD) || !text.startsWith(written, CANONICAL_HEAD.length)) return false;
  const next = text.charCodeAt(CANONICAL_HEAD.length + written.length);
  return next === COMMA || next === CLOSE_BRACE;
}

const NULL_ID_PREFIX = '{"jsonrpc":"2.0","id":null';

/**
 * A response serialized with `id: null` (as `{"jsonrpc":"2.0","id":null,…}`), with the
 * id's exact JSON text put in its place. Lets any serializer answer a big id verbatim.
 */
export function withIdText(serializedWithNullId: string, idText: string): string {
  if (!serializedWithNullId.startsWith(NULL_ID_PREFIX)) {
    throw new Error('withIdText: the frame must start with {"jsonrpc":"2.0","id":null');
  }
  return `{"jsonrpc":"2.0","id":${idText}${serializedWithNullId.slice(NULL_ID_PREFIX.length)}`;
}

/**
 * The source text of the last top-level member `key` of a JSON object text (the last, as
 * `JSON.parse` keeps the last of duplicate keys), or undefined. `text` must be valid JSON.
 * Iterative and linear: nesting depth cannot overflow the stack.
 */
export function topLevelMemberText(text: string, key: string): string | undefined {
  return memberText(text, key, false);
}

/** The text of the first (`first`) or last top-level member `key`; see {@link topLevelMemberText}. */
function memberText(text: string, key: string, first: boolean): string | undefined {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) return undefined;
  i = skipSpace(text, i + 1);
  let found: string | undefined;
  while (i < text.length && text.charCodeAt(i) !== CLOSE_BRACE) {
    const keyEnd = endOfString(text, i);
    const rawKey = text.slice(i + 1, keyEnd - 1);
    i = skipSpace(text, keyEnd);
    i = skipSpace(text, i + 1); // past ':'
    const valueEnd = endOfValue(text, i);
    if (rawKey === key || (rawKey.includes("\\") && JSON.parse(`"${rawKey}"`) === key)) {
      found = text.slice(i, valueEnd);
      if (first) return found;
    }
    i = skipSpace(text, valueEnd);
    if (text.charCodeAt(i) === COMMA) i = skipSpace(text, i + 1);
  }
  return found;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

function skipSpace(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i += 1;
    else return i;
  }
}

/** Index just past the string starting at `from` (its opening quote). */
function endOfString(text: string, from: number): number {
  let i = from + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote === -1) return text.length;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

/** Index just past the value starting at `from`. */
function endOfValue(text: string, from: number): number {
  const first = text.charCodeAt(from);
  if (first === QUOTE) return endOfString(text, from);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) return endOfContainer(text, from);
  return endOfLiteral(text, from);
}

/** Index just past the object or array starting at `from`, skipping strings whole. */
function endOfContainer(text: string, from: number): number {
  let depth = 0;
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i);
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth += 1;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
    i += 1;
  }
  return i;
}

/** Index just past the number, `true`, `false` or `null` starting at `from`. */
function endOfLiteral(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c <= 0x20) return i;
    i += 1;
  }
  return i;
}
