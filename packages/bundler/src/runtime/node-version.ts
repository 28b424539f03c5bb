import { open } from "node:fs/promises";

const MARKER = Buffer.from("/download/release/v");
const CHUNK = 8 * 1024 * 1024;

/**
 * The Node.js version a node binary was released as, read from the release URL every
 * official build embeds (`process.release.sourceUrl`); `undefined` for custom builds.
 * Works on binaries of any platform, so it can check a cross-platform `nodeBinary`.
 */
export async function nodeVersionOfBinary(path: string): Promise<string | undefined> {
  const file = await open(path, "r");
  try {
    const buffer = Buffer.alloc(CHUNK + 64);
    let position = 0;
    let carry = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, carry, CHUNK, position);
      if (bytesRead === 0) return undefined;
      const view = buffer.subarray(0, carry + bytesRead);
      const at = view.indexOf(MARKER);
      if (at !== -1) {
        const match = /^v(\d+\.\d+\.\d+)\//.exec(
          view.toString("latin1", at + MARKER.length - 1, at + MARKER.length + 24),
        );
        if (match) return `v${match[1]}`;
      }
      position += bytesRead;
      // Keep the tail so a marker split across two reads is still found.
      carry = Math.min(64, view.length);
      view.copy(buffer, 0, view.length - carry);
    }
  } finally {
    await file.close();
  }
}
