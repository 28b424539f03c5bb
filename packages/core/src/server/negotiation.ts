import type { ClientCapabilities } from "../wire/capability-families.js";
import { announcedCapabilities } from "../wire/capability-families.js";
import type { InitializeParams, ProtocolVersion } from "../wire/invoke.js";

/** The protocol version to answer for the version a host offered. */
export function negotiateVersion(params: InitializeParams | undefined): ProtocolVersion {
  const offered = params?.protocolVersion;
  return typeof offered === "string" && /^2(\.|$)/.test(offered) ? "2.0" : "1.1";
}

/**
 * The `client_capabilities` of the `initialize` answer: the reverse capabilities the
 * manifest's `host_capabilities` declare, at the slots the capability-family table gives
 * (`sampling`, `storage: { kv, files }` with only the true flags, `upload`, `image`,
 * `image.edit`, `embeddings`, `agent: { submodes: ["auto"] }`).
 */
export function clientCapabilitiesFor(hostCapabilities: readonly string[] = []): ClientCapabilities {
  return announcedCapabilities(hostCapabilities);
}
