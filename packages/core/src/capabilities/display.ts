/**
 * Display blocks: content under the reserved top-level `_display` key of a tool result,
 * which the host's chat UI renders verbatim instead of letting the model paraphrase it.
 * The model gets a note that the blocks were shown; the other fields reach it unchanged.
 */

/** A Markdown block (the only block type of display v1). */
export interface MarkdownDisplayBlock {
  type: "markdown";
  text: string;
}

export type DisplayBlock = MarkdownDisplayBlock;

/** The value of `_display`. */
export interface Display {
  blocks: DisplayBlock[];
}

/**
 * Limits the host enforces. Over any of them (or an unknown block type) the host drops
 * the whole `_display` instead of truncating it, so {@link withDisplay} checks them first.
 * Lengths count Unicode code points.
 */
export const DISPLAY_LIMITS = { maxBlocks: 8, maxBlockChars: 4000, maxTotalChars: 16000 } as const;

/** A Markdown display block. */
export function markdown(text: string): MarkdownDisplayBlock {
  return { type: "markdown", text };
}

/**
 * Returns a copy of `data` with `_display` set to `blocks` (strings are Markdown blocks).
 * Throws a RangeError or TypeError when the blocks break the display contract: 1–8
 * blocks of non-empty Markdown, at most 4000 characters each and 16000 in all.
 *
 * @example
 * ```ts
 * return withDisplay({ count }, `**This is the ${count}th time** you hit this.`);
 * ```
 */
export function withDisplay<T extends Record<string, unknown>>(
  data: T,
  ...blocks: (DisplayBlock | string)[]
): T & { _display: Display } {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new TypeError("withDisplay: data must be a plain object (the tool result's fields)");
  }
  if ("_display" in data) throw new TypeError("withDisplay: data already has a _display key");
  return { ...data, _display: display(...blocks) };
}

/** Builds and checks a `_display` value. */
export function display(...blocks: (DisplayBlock | string)[]): Display {
  const normalized = blocks.map((block) => (typeof block === "string" ? markdown(block) : block));
  if (normalized.length === 0 || normalized.length > DISPLAY_LIMITS.maxBlocks) {
    throw new RangeError(
      `display: ${normalized.length} blocks; 1 to ${DISPLAY_LIMITS.maxBlocks} are allowed`,
    );
  }
  let total = 0;
  normalized.forEach((block, index) => {
    if (block?.type !== "markdown") {
      throw new TypeError(
        `display: block ${index} has type ${JSON.stringify(block?.type)}; only "markdown" exists`,
      );
    }
    if (typeof block.text !== "string" || block.text === "") {
      throw new TypeError(`display: block ${index} needs non-empty text`);
    }
    const chars = codePoints(block.text);
    if (chars > DISPLAY_LIMITS.maxBlockChars) {
      throw new RangeError(
        `display: block ${index} has ${chars} characters; at most ${DISPLAY_LIMITS.maxBlockChars} are allowed`,
      );
    }
    total += chars;
  });
  if (total > DISPLAY_LIMITS.maxTotalChars) {
    throw new RangeError(
      `display: ${total} characters in all; at most ${DISPLAY_LIMITS.maxTotalChars} are allowed`,
    );
  }
  return { blocks: normalized.map((block) => ({ type: block.type, text: block.text })) };
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
