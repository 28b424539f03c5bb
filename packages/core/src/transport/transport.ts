import type { FrameSink } from "../framing/frame-writer.js";
import type { LineEvent } from "../framing/line-reader.js";
import type { FrameClass } from "../wire/classify-frame.js";

/** What a {@link Transport} hands to its peer, in the order the other side wrote it. */
export interface TransportReceiver {
  /** One line read from the other side (or a line that was too long, or not UTF-8). */
  line(event: LineEvent): void;
  /**
   * One frame the transport has already classified (the host's stdout demux does, to
   * tell frames from debug lines): the peer routes it without parsing the text again.
   */
  frame(frame: FrameClass, text: string): void;
  /** The input ended: nothing more will arrive. */
  end(): void;
}

/**
 * How a JSON-RPC peer reaches the other side: lines come in, frames go out, and input
 * can be paused while the peer has too much to do. Stdio is one ({@link streamTransport});
 * an in-memory pair is another ({@link memoryTransportPair}).
 */
export interface Transport {
  /** Where the peer writes its frames, one per line. */
  readonly output: FrameSink;
  /** Starts delivering input to `receiver`. Called once. */
  open(receiver: TransportReceiver): void;
  /** Holds input back until {@link Transport.resume}; nothing is lost meanwhile. */
  pause(): void;
  /** Delivers input again after {@link Transport.pause}. */
  resume(): void;
  /** Stops delivering input for good; only {@link TransportReceiver.end} is still told. */
  close(): void;
}
