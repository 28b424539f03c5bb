import type { ClientCapabilities, InitializeParams, ProtocolVersion } from "../wire/invoke.js";

/** The protocol version to answer for the version a host offered. */
export function negotiateVersion(params: InitializeParams | undefined): ProtocolVersion {
  const offered = params?.protocolVersion;
  return typeof offered === "string" && /^2(\.|$)/.test(offered) ? "2.0" : "1.1";
}

/**
 * The `client_capabilities` of the `initialize` answer: the reverse capabilities the
 * manifest's `host_capabilities` declare.
 */
export function clientCapabilitiesFor(hostCapabilities: readonly string[] = []): ClientCapabilities {
  const has = (name: string) => hostCapabilities.includes(name);
  const caps: ClientCapabilities = {};
  if (has("llm.sample")) caps.sampling = {};
  const kv = has("aps.kv");
  const files = has("aps.files");
  if (kv || files) caps.storage = { kv, files };
  if (has("host.upload")) caps.upload = {};
  const generate = has("llm.image");
  const edit = has("llm.image.edit");
  if (generate || edit) caps.image = { generate, edit };
  if (has("llm.embed")) caps.embeddings = {};
  if (has("llm.agent.auto")) caps.agent = {};
  return caps;
}
