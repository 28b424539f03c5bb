import {
  AgentErrorCode,
  EmbeddingsErrorCode,
  ImageErrorCode,
  SamplingErrorCode,
  StorageErrorCode,
  UploadErrorCode,
} from "@executa/core";

/** The reverse-call families a host answers, each served by one provider. */
export type CapabilityFamily = "sampling" | "storage" | "files" | "upload" | "image" | "embeddings" | "agent";

/** What the host needs to know about one family of reverse calls. */
export interface FamilySpec {
  readonly family: CapabilityFamily;
  /** The `host_capabilities` entry a method of this family needs. */
  capabilityFor(method: string): string;
  /** The family's "not granted" code, for a capability the manifest did not declare. */
  readonly notGrantedCode: number;
  /**
   * The family's "not negotiated" code, for a call from a plugin that negotiated v1.
   * Families without one (storage, files, agent) answer their "not granted" code.
   */
  readonly notNegotiatedCode: number;
}

const fixed = (capability: string) => () => capability;

const SAMPLING: FamilySpec = {
  family: "sampling",
  capabilityFor: fixed("llm.sample"),
  notGrantedCode: SamplingErrorCode.NOT_GRANTED,
  notNegotiatedCode: SamplingErrorCode.NOT_NEGOTIATED,
};
const STORAGE: FamilySpec = {
  family: "storage",
  capabilityFor: fixed("aps.kv"),
  notGrantedCode: StorageErrorCode.NOT_GRANTED,
  notNegotiatedCode: StorageErrorCode.NOT_GRANTED,
};
const FILES: FamilySpec = {
  family: "files",
  capabilityFor: fixed("aps.files"),
  notGrantedCode: StorageErrorCode.NOT_GRANTED,
  notNegotiatedCode: StorageErrorCode.NOT_GRANTED,
};
const UPLOAD: FamilySpec = {
  family: "upload",
  capabilityFor: fixed("host.upload"),
  notGrantedCode: UploadErrorCode.NOT_GRANTED,
  notNegotiatedCode: UploadErrorCode.NOT_NEGOTIATED,
};
const IMAGE: FamilySpec = {
  family: "image",
  capabilityFor: (method) => (method === "image/edit" ? "llm.image.edit" : "llm.image"),
  notGrantedCode: ImageErrorCode.NOT_GRANTED,
  notNegotiatedCode: ImageErrorCode.NOT_NEGOTIATED,
};
const EMBEDDINGS: FamilySpec = {
  family: "embeddings",
  capabilityFor: fixed("llm.embed"),
  notGrantedCode: EmbeddingsErrorCode.NOT_GRANTED,
  notNegotiatedCode: EmbeddingsErrorCode.NOT_NEGOTIATED,
};
const AGENT: FamilySpec = {
  family: "agent",
  capabilityFor: fixed("llm.agent.auto"),
  notGrantedCode: AgentErrorCode.NOT_GRANTED,
  notNegotiatedCode: AgentErrorCode.NOT_GRANTED,
};

const BY_PREFIX = new Map<string, FamilySpec>([
  ["sampling", SAMPLING],
  ["storage", STORAGE],
  ["files", FILES],
  // The reference SDKs send user-scope file calls as `user_files/*`.
  ["user_files", FILES],
  ["image", IMAGE],
  ["embeddings", EMBEDDINGS],
  ["agent", AGENT],
]);

/** The family a reverse-call method belongs to, or undefined for methods no host answers. */
export function familyOf(method: string): FamilySpec | undefined {
  if (method === "host/uploadFile") return UPLOAD;
  const slash = method.indexOf("/");
  if (slash <= 0) return undefined;
  return BY_PREFIX.get(method.slice(0, slash));
}
