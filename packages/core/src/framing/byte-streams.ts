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

/** A stream that takes bytes as well as text (a MemoryPipe, a child's stdin). */
export interface RawOutputStream {
  /** Writes `data`; `callback` runs once it was taken, with the error if it failed. */
  write(data: string | Uint8Array, callback: (error?: Error | null) => void): unknown;
}

/** Writes `data` exactly as given; settles once the stream took it, or rejects with its error. */
export function writeRaw(stream: RawOutputStream, data: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(data, (error) => (error ? reject(error) : resolve()));
  });
}
