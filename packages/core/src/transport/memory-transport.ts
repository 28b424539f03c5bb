import { writeRaw } from "../framing/byte-streams.js";
import { MemoryPipe } from "./memory-pipe.js";
import { type StreamTransportOptions, streamTransport } from "./stream-transport.js";
import type { Transport } from "./transport.js";

/** One end of a {@link memoryTransportPair}. */
export interface MemoryTransportEnd extends Transport {
  /** Writes bytes to the other end exactly as given, bypassing framing (for malformed-input tests). */
  writeRaw(data: string | Uint8Array): Promise<void>;
  /** Closes this end's output: the other end reads EOF after what was written, as on a closed stdin. */
  endOutput(): void;
  /** Cuts both directions at once, as a killed process does: what is unread is lost. */
  cut(): void;
}

/**
 * Two transports linked in memory, each one's output the other's input, with the line
 * framing, the 16 MiB line limit and the backpressure of a real pipe (see
 * `MemoryPipe`): a plugin server and a host can talk in one process, frame for
 * frame as over stdio.
 *
 * @param first - How the first end reads its input.
 * @param second - How the second end reads its input; the same as the first by default.
 */
export function memoryTransportPair(
  first: StreamTransportOptions = {},
  second: StreamTransportOptions = first,
): [MemoryTransportEnd, MemoryTransportEnd] {
  const firstToSecond = new MemoryPipe();
  const secondToFirst = new MemoryPipe();
  return [memoryEnd(secondToFirst, firstToSecond, first), memoryEnd(firstToSecond, secondToFirst, second)];
}

function memoryEnd(
  input: MemoryPipe,
  output: MemoryPipe,
  options: StreamTransportOptions,
): MemoryTransportEnd {
  return Object.assign(streamTransport(input, { stream: output }, options), {
    writeRaw: (data: string | Uint8Array) => writeRaw(output, data),
    endOutput: () => output.end(),
    cut: () => {
      input.destroy();
      output.destroy();
    },
  });
}
