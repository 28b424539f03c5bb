/**
 * SWC's parse failures as errors that name the author's file, line and column. SWC
 * reports them as one text: the message, a code frame headed `,-[FILE:LINE:COL]` with a
 * `^` under the offending column, then (with `RUST_BACKTRACE` set) its own Rust backtrace.
 */

/** Where SWC's code frame says the error is. */
const FRAME_HEADER = /,-\[(.+):(\d+):(\d+)\]/;

/** The line under the offending source line: the gutter, `:`, then spaces and `^`. */
const CARET_LINE = /^ *: ( *)\^/m;

/** What follows the diagnostic: SWC's error chain and Rust backtrace, never the author's. */
const RUST_TAIL = /\n\s*\n\s*Caused by:[\s\S]*$/;

/**
 * The error a failed SWC transform of `filename` should surface: a `SyntaxError` whose
 * message is SWC's diagnostic with its code frame, and whose stack has one frame, the
 * author's `FILE:LINE:COLUMN`. `undefined` when `error` is not a diagnostic about that file.
 */
export function swcSyntaxError(error: unknown, filename: string): SyntaxError | undefined {
  const text = String((error as { message?: unknown })?.message ?? error);
  const header = FRAME_HEADER.exec(text);
  if (!header || header[1] !== filename) return undefined;
  const diagnostic = text.replace(RUST_TAIL, "").trimEnd();
  const [first = "", ...frame] = diagnostic.split("\n");
  const message = first.replace(/^\s*x\s+/, "");
  const caret = CARET_LINE.exec(diagnostic);
  const column = caret ? caret[1]!.length + 1 : Number(header[3]);
  const syntaxError = new SyntaxError(`${message}\n${frame.join("\n")}`);
  syntaxError.stack = `SyntaxError: ${syntaxError.message}\n    at ${filename}:${header[2]}:${column}`;
  return syntaxError;
}
