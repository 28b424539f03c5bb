import type { ClientCapabilities, InitializeParams, ProtocolVersion } from "../wire/invoke.js";

/** The protocol version to answer for the version a host offered. */
export function negotiateVersion(params: InitializeParams | undefined): ProtocolVersion {
  const offered = params?.protocolVersion;
  return typeof offered === "string" && /^2(\.|$)/.test(offered) ? "2.0" : "1.1";
}

/**
 * The `client_capabilities` of the `initialize` answer: the reverse capabilities the
 * manifest's `host_capabilities` declare, under the keys the reference plugins announce
 * (`sampling`, `storage: { kv, files }` with only the true flags, `upload`, `image`,
 * `image.edit`, `embeddings`, `agent: { submodes: ["auto"] }`).
 */
export function clientCapabilitiesFor(hostCapabilities: readonly string[] = []): ClientCapabilities {
  const has = (name: string) => hostCapabilities.includes(name);
  const caps: ClientCapabilities = {};
  if (has("llm.sample")) caps.sampling = {};
  if (has("aps.kv") || has("aps.files")) {
    caps.storage = {};
    if (has("aps.kv")) caps.storage.kv = true;
    if (has("aps.files")) caps.storage.files = true;
  }
  if (has("host.upload")) caps.upload = {};
  if (has("llm.image")) caps.image = {};
  if (has("llm.image.edit")) caps["image.edit"] = {};
  if (has("llm.embed")) caps.embeddings = {};
  if (has("llm.agent.auto")) caps.agent = { submodes: ["auto"] };
  return caps;
}
