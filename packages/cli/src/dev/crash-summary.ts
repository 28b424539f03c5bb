/** `TypeError: …`, `Error [ERR_X]: …`, `executa: …` (what the decorators' `serve` writes). */
const ERROR_LINE = /^(?:Uncaught )?(?:(?:[A-Z][\w$.]*)?(?:Error|Exception)(?: \[[\w-]+\])?: .|executa: .)/;

/** The fix line under a definition error's message: `  Fix: declare it as …`. */
const FIX = /^\s*Fix: ./;

/** A stack frame: `    at fn (file:///…:1:2)`. */
const FRAME = /^\s+at /;

/**
 * Frames that are not the author's code: Node's own (`node:`), installed packages, and
 * the hooks that run a TypeScript entry from source (the bundler's, in or outside node_modules).
 */
const NOT_AUTHOR_FRAME = /\(?node:|\/node_modules\/|register-hooks\.[cm]?js/;

/** Node's last line after an uncaught exception, and the blank lines around it. */
const NOISE = /^(?:\s*|Node\.js v\d.*|\s*\^+\s*)$/;

/** How many lines a summary without an error line keeps. */
const FALLBACK_LINES = 3;

/**
 * The lines of a plugin's stderr that say why it crashed: the first error line (e.g.
 * `TypeError: cannot read the config`, `executa: the plugin cannot start [CODE]: …`) and
 * the fix line that follows it, if any, and the first stack frame after it in the author's code; without an error line, the last
 * few meaningful lines. Empty when stderr said nothing.
 */
export function crashSummary(lines: readonly string[]): string[] {
  const at = lines.findIndex((line) => ERROR_LINE.test(line.trimStart()));
  if (at === -1) return lines.filter((line) => !NOISE.test(line)).slice(-FALLBACK_LINES);
  const after = lines.slice(at + 1);
  const frame = after.find((line) => FRAME.test(line) && !NOT_AUTHOR_FRAME.test(line));
  // A definition error's message goes on with its fix, before any stack frame.
  const firstFrame = after.findIndex((line) => FRAME.test(line));
  const fix = after.slice(0, firstFrame === -1 ? after.length : firstFrame).find((line) => FIX.test(line));
  const error = lines[at]!.trim();
  return [
    error,
    ...(fix === undefined ? [] : [`  ${fix.trim()}`]),
    ...(frame === undefined ? [] : [`  ${frame.trim()}`]),
  ];
}
