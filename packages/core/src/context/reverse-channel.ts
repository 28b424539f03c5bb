import type { RequestOptions } from "../rpc/peer.js";
import type { ProtocolVersion } from "../wire/invoke.js";

/**
 * The way back to the host that an invoke's capability clients use: the server's one
 * peer (one pending table for every capability), plus what the handshake settled.
 */
export interface ReverseChannel {
  /** Sends a reverse request (plugin → host) and resolves with its result. */
  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  /** The version negotiated by `initialize` ("1.1" until a v2 host initializes). */
  protocolVersion(): ProtocolVersion;
  /** The manifest's `host_capabilities`. */
  readonly hostCapabilities: readonly string[];
}
