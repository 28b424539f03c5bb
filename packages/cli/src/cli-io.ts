/** Where a command reads and writes; the process's streams by default (tests pass others). */
export interface CliIO {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** The process's own streams. */
export function processIO(): CliIO {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
}

/** True when colours should be used on `stream` (a terminal, and NO_COLOR unset). */
export function useColor(stream: { isTTY?: boolean }): boolean {
  return stream.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== "dumb";
}
