import { stderr } from "../log/stderr.js";

/**
 * Keeps stdout for protocol frames only. Once installed, every `process.stdout.write`
 * from user or library code — `console.log` included — goes to stderr instead; the
 * returned function is the real stdout write, for the frame writer alone.
 */
export function guardStdout(): {
  realWrite: (data: string, callback: (error?: Error | null) => void) => boolean;
  restore: () => void;
} {
  const stdout = process.stdout;
  const original = stdout.write;
  const realWrite = (data: string, callback: (error?: Error | null) => void) =>
    (original as (data: string, callback: (error?: Error | null) => void) => boolean).call(
      stdout,
      data,
      callback,
    );
  stdout.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    const stream = stderr();
    return (stream.write as (...args: unknown[]) => boolean).call(stream, chunk, encoding, callback);
  }) as typeof stdout.write;
  return {
    realWrite,
    restore: () => {
      stdout.write = original;
    },
  };
}
