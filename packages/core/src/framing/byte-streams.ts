/**
 * What a peer reads frames from. A Node `Readable` fits; so does the Bun stdin reader,
 * which spares a Bun executable the cost of loading Node's stream modules at startup.
 */
export interface InputStream {
  on(event: "data", listener: (chunk: Buffer) => void): unknown;
  once(event: "end" | "close", listener: () => void): unknown;
  off(event: "data", listener: (chunk: Buffer) => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/**
 * What frames are written to. A Node `Writable` fits; so does the Bun stdout writer.
 * `write` returns false when the caller must wait for `drain` before writing more.
 */
export interface OutputStream {
  write(data: string, callback: (error?: Error | null) => void): boolean;
  on(event: "error", listener: (error: Error) => void): unknown;
  once(event: "drain", listener: () => void): unknown;
}
