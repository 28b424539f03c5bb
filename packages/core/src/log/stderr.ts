let listening = false;

/**
 * `process.stderr`, with an error listener installed on first use: a host that went away
 * must not turn log writes into crashes. Installed on first use rather than at startup,
 * because a Bun executable pays for creating the stream (~3 ms).
 */
export function stderr(): NodeJS.WriteStream {
  if (!listening) {
    listening = true;
    process.stderr.on("error", () => {});
  }
  return process.stderr;
}
