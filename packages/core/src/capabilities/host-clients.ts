import type { ReverseChannel } from "../context/reverse-channel.js";
import type { ReverseFamilyName } from "../wire/capability-families.js";
import { AgentClient } from "./agent.js";
import { EmbeddingsClient } from "./embeddings.js";
import { FilesClient } from "./files.js";
import { HostCaller, type InvokeBinding } from "./host-call.js";
import { ImageClient } from "./image.js";
import { SamplingClient } from "./sampling.js";
import { StorageClient } from "./storage.js";
import { UploadClient } from "./upload.js";

/**
 * Typed clients for the host's reverse capabilities, bound to one invoke: every call
 * carries that invoke's `context.invoke_id`, is bounded by its deadline and aborted by
 * its signal. Each needs its `host_capabilities` entry in the manifest and a host that
 * negotiated protocol 2.0; otherwise it fails locally, writing nothing.
 */
export interface HostClients {
  /** `sampling/createMessage` — needs `llm.sample`. */
  readonly sampling: SamplingClient;
  /** `storage/*` key-value store — needs `aps.kv`. */
  readonly storage: StorageClient;
  /** `files/*` object storage — needs `aps.files`. */
  readonly files: FilesClient;
  /** `host/uploadFile` transient uploads — needs `host.upload`. */
  readonly upload: UploadClient;
  /** `image/generate` (needs `llm.image`) and `image/edit` (needs `llm.image.edit`). */
  readonly image: ImageClient;
  /** `embeddings/create` — needs `llm.embed`. */
  readonly embeddings: EmbeddingsClient;
  /** `agent/session.*` and `agent/complete` — needs `llm.agent.auto`. */
  readonly agent: AgentClient;
}

/** The client class of each family of the capability table; a family without one is a compile error. */
const CLIENTS = {
  sampling: SamplingClient,
  storage: StorageClient,
  files: FilesClient,
  upload: UploadClient,
  image: ImageClient,
  embeddings: EmbeddingsClient,
  agent: AgentClient,
} as const satisfies {
  readonly [Family in ReverseFamilyName]: new (
    caller: HostCaller,
  ) => HostClients[Family];
};

/** Builds the host clients of one invoke on the server's reverse channel. */
export function createHostClients(channel: ReverseChannel, invoke: InvokeBinding): HostClients {
  const caller = new HostCaller(channel, invoke);
  const clients = Object.entries(CLIENTS).map(([family, Client]) => [family, new Client(caller)]);
  return Object.freeze(Object.fromEntries(clients) as HostClients);
}
