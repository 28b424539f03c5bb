/**
 * The reverse-RPC capability families (protocol-v2-notes: "Manifest additions",
 * "Reverse RPC"), as one table: each family's methods, the `host_capabilities` strings
 * that grant them, where those show in `client_capabilities`, and the family's error
 * codes. Plugin-side negotiation, the capability clients, the host's router and offer,
 * and the CLI's manifest check all read it; a new family is one new row here.
 */
import {
  AgentErrorCode,
  EmbeddingsErrorCode,
  ImageErrorCode,
  SamplingErrorCode,
  StorageErrorCode,
  UploadErrorCode,
} from "./error-codes.js";

/**
 * Where a capability shows in `client_capabilities` (plugin → host) or in the host's
 * `initialize` offer: `key: {}`, or the boolean `flag` under `key`, or `key: value`.
 */
export interface CapabilitySlot {
  readonly key: string;
  /** A boolean flag under `key` (e.g. `storage: { kv: true }`). */
  readonly flag?: string;
  /** The value announced under `key` instead of `{}`. */
  readonly value?: Readonly<Record<string, unknown>>;
}

/** One `host_capabilities` string a manifest may declare, and how it is announced. */
export interface HostCapabilityGrant {
  /** The manifest string, e.g. `llm.sample`. */
  readonly capability: string;
  /** Where `initialize` announces it in `client_capabilities`. */
  readonly announce: CapabilitySlot;
}

/** The error codes a family answers with; every family has NOT_GRANTED. */
export interface FamilyErrorCodes {
  readonly NOT_GRANTED: number;
  /** Absent for families whose spec has none (storage, files, agent). */
  readonly NOT_NEGOTIATED?: number;
  readonly [name: string]: number | undefined;
}

/** One row of the table; `Name` is its key there. */
export interface ReverseFamily<Name extends string = ReverseFamilyName> {
  readonly name: Name;
  /** Method namespaces (before the `/`) whose every method belongs to this family. */
  readonly namespaces: readonly string[];
  /** The family's methods, each with the `host_capabilities` entry it needs. */
  readonly methods: Readonly<Record<string, string>>;
  /** The capability a method of one of `namespaces` needs when `methods` does not list it. */
  readonly capability: string;
  /** The `host_capabilities` strings that grant the family's methods. */
  readonly grants: readonly HostCapabilityGrant[];
  /** Where a host offers the family in `initialize` when it has a provider for it. */
  readonly offer: CapabilitySlot;
  /** The family's error codes (`storage` and `files` share theirs). */
  readonly codes: FamilyErrorCodes;
}

/** The table, in the order `client_capabilities` lists the families. */
export const CAPABILITY_FAMILIES = {
  sampling: {
    name: "sampling",
    namespaces: ["sampling"],
    methods: { "sampling/createMessage": "llm.sample" },
    capability: "llm.sample",
    grants: [{ capability: "llm.sample", announce: { key: "sampling" } }],
    offer: { key: "sampling" },
    codes: SamplingErrorCode,
  },
  storage: {
    name: "storage",
    namespaces: ["storage"],
    methods: {
      "storage/get": "aps.kv",
      "storage/set": "aps.kv",
      "storage/delete": "aps.kv",
      "storage/list": "aps.kv",
    },
    capability: "aps.kv",
    grants: [{ capability: "aps.kv", announce: { key: "storage", flag: "kv" } }],
    offer: { key: "storage", flag: "kv" },
    codes: StorageErrorCode,
  },
  files: {
    name: "files",
    // The reference SDKs send user-scope file calls as `user_files/*`.
    namespaces: ["files", "user_files"],
    methods: {
      "files/upload_begin": "aps.files",
      "files/upload_complete": "aps.files",
      "files/download_url": "aps.files",
      "files/list": "aps.files",
      "files/delete": "aps.files",
    },
    capability: "aps.files",
    grants: [{ capability: "aps.files", announce: { key: "storage", flag: "files" } }],
    offer: { key: "storage", flag: "files" },
    codes: StorageErrorCode,
  },
  upload: {
    name: "upload",
    // `host/*` is not the family's own namespace: only `host/uploadFile` belongs to it.
    namespaces: [],
    methods: { "host/uploadFile": "host.upload" },
    capability: "host.upload",
    grants: [{ capability: "host.upload", announce: { key: "upload" } }],
    offer: { key: "upload" },
    codes: UploadErrorCode,
  },
  image: {
    name: "image",
    namespaces: ["image"],
    methods: { "image/generate": "llm.image", "image/edit": "llm.image.edit" },
    capability: "llm.image",
    grants: [
      { capability: "llm.image", announce: { key: "image" } },
      { capability: "llm.image.edit", announce: { key: "image.edit" } },
    ],
    offer: { key: "image" },
    codes: ImageErrorCode,
  },
  embeddings: {
    name: "embeddings",
    namespaces: ["embeddings"],
    methods: { "embeddings/create": "llm.embed" },
    capability: "llm.embed",
    grants: [{ capability: "llm.embed", announce: { key: "embeddings" } }],
    offer: { key: "embeddings" },
    codes: EmbeddingsErrorCode,
  },
  agent: {
    name: "agent",
    namespaces: ["agent"],
    methods: {
      "agent/session.create": "llm.agent.auto",
      "agent/session.run": "llm.agent.auto",
      "agent/session.cancel": "llm.agent.auto",
      "agent/session.history": "llm.agent.auto",
      "agent/session.delete": "llm.agent.auto",
      "agent/session.list": "llm.agent.auto",
      "agent/session.refresh": "llm.agent.auto",
      "agent/complete": "llm.agent.auto",
    },
    capability: "llm.agent.auto",
    grants: [{ capability: "llm.agent.auto", announce: { key: "agent", value: { submodes: ["auto"] } } }],
    offer: { key: "agent" },
    codes: AgentErrorCode,
  },
} as const satisfies { readonly [name: string]: ReverseFamily<string> };

/** Names of the reverse-call families (the table's keys); a host serves each with one provider. */
export type ReverseFamilyName = keyof typeof CAPABILITY_FAMILIES;

/** A method a plugin calls on its host, as the families' table lists it. */
export type ReverseMethod = {
  [K in ReverseFamilyName]: keyof (typeof CAPABILITY_FAMILIES)[K]["methods"];
}[ReverseFamilyName];

/** The table's rows, in order; a row's `name` that is not a key of the table is a compile error. */
export const REVERSE_FAMILIES: readonly ReverseFamily[] = Object.values(CAPABILITY_FAMILIES);

/** Where the table's grants are announced. */
type AnnounceSlot = (typeof CAPABILITY_FAMILIES)[ReverseFamilyName]["grants"][number]["announce"];

/**
 * Reverse capabilities a plugin announces in its `initialize` answer: each grant of the
 * table at its slot (`sampling: {}`, `storage: { kv, files }`, `agent: { submodes }`), a
 * slot's announced lists typed as lists of any strings.
 */
export type ClientCapabilities = {
  [Key in AnnounceSlot["key"]]?: [Extract<AnnounceSlot, { readonly key: Key }>] extends [
    { readonly flag: infer Flag extends string },
  ]
    ? { [F in Flag]?: boolean }
    : [Extract<AnnounceSlot, { readonly key: Key }>] extends [{ readonly value: infer Value }]
      ? {
          -readonly [Field in keyof Value]?: Value[Field] extends readonly string[] ? string[] : Value[Field];
        }
      : Record<string, never>;
} & { [key: string]: unknown };

/** A `host_capabilities` string of the table (a family's grant, or a user-scope grant). */
export type KnownHostCapability =
  | (typeof CAPABILITY_FAMILIES)[ReverseFamilyName]["grants"][number]["capability"]
  | (typeof USER_SCOPE_GRANTS)[number];

/**
 * `host_capabilities` strings that grant no family of their own: they widen the
 * `user` scope of `storage/*` and `files/*` calls.
 */
export const USER_SCOPE_GRANTS = ["aps.scope.user.read", "aps.scope.user.write"] as const;

/** The `host_capabilities` strings that grant the families, in table order: all a plugin using every family declares. */
export const FAMILY_GRANTS: readonly KnownHostCapability[] = REVERSE_FAMILIES.flatMap((family) =>
  family.grants.map((grant) => grant.capability as KnownHostCapability),
);

/** Every `host_capabilities` string hosts are known to grant. */
export const HOST_CAPABILITY_NAMES: readonly KnownHostCapability[] = [...FAMILY_GRANTS, ...USER_SCOPE_GRANTS];

const BY_METHOD = new Map<string, ReverseFamily>(
  REVERSE_FAMILIES.flatMap((family) =>
    Object.keys(family.methods).map((method) => [method, family] as const),
  ),
);
const BY_NAMESPACE = new Map<string, ReverseFamily>(
  REVERSE_FAMILIES.flatMap((family) => family.namespaces.map((namespace) => [namespace, family] as const)),
);

/** The family a reverse-call method belongs to, or undefined for a method no family has. */
export function reverseFamilyOf(method: string): ReverseFamily | undefined {
  const exact = BY_METHOD.get(method);
  if (exact) return exact;
  const slash = method.indexOf("/");
  return slash > 0 ? BY_NAMESPACE.get(method.slice(0, slash)) : undefined;
}

/** The `host_capabilities` entry `method` needs, or undefined for a method no family has. */
export function capabilityForMethod(method: string): string | undefined {
  const family = reverseFamilyOf(method);
  if (!family) return undefined;
  return Object.hasOwn(family.methods, method) ? family.methods[method] : family.capability;
}

/**
 * The code a reverse call is refused with: NOT_GRANTED when the capability is not
 * declared or granted; when protocol 2.0 was not negotiated, the family's NOT_NEGOTIATED,
 * or NOT_GRANTED for families without one.
 */
export function refusalCode(
  codes: Pick<FamilyErrorCodes, "NOT_GRANTED" | "NOT_NEGOTIATED">,
  reason: "not_negotiated" | "not_granted",
): number {
  return reason === "not_negotiated" ? (codes.NOT_NEGOTIATED ?? codes.NOT_GRANTED) : codes.NOT_GRANTED;
}

/**
 * Fills `slots` in as `client_capabilities` does: flags under a shared key collect in one
 * object (all of the key's known flags, `false` when `allFlags` and not set).
 */
function fillSlots(slots: readonly CapabilitySlot[], allFlags: readonly CapabilitySlot[] | undefined) {
  const out: Record<string, unknown> = {};
  for (const slot of slots) {
    if (slot.flag === undefined) out[slot.key] = slot.value ? structuredClone(slot.value) : {};
    else flagsAt(out, slot.key, allFlags)[slot.flag] = true;
  }
  return out;
}

/**
 * The flag object under `key` in `out`, made on first use with every flag `allFlags`
 * knows for `key` set to `false`.
 */
function flagsAt(
  out: Record<string, unknown>,
  key: string,
  allFlags: readonly CapabilitySlot[] | undefined,
): Record<string, boolean> {
  const existing = out[key] as Record<string, boolean> | undefined;
  if (existing) return existing;
  const flags: Record<string, boolean> = {};
  for (const other of allFlags ?? []) if (other.key === key && other.flag) flags[other.flag] = false;
  out[key] = flags;
  return flags;
}

/**
 * The `client_capabilities` a plugin announces for its manifest's `host_capabilities`:
 * each declared grant at its slot (`storage: { kv, files }` with only the true flags).
 */
export function announcedCapabilities(hostCapabilities: readonly string[]): Record<string, unknown> {
  const slots = REVERSE_FAMILIES.flatMap((family) =>
    family.grants
      .filter((grant) => hostCapabilities.includes(grant.capability))
      .map((grant) => grant.announce),
  );
  return fillSlots(slots, undefined);
}

/**
 * The `capabilities` a host offers in `initialize` for the families it serves, in the
 * shape plugins announce theirs (`storage: { kv, files }` with both flags).
 */
export function offeredCapabilities(served: Iterable<ReverseFamilyName>): Record<string, unknown> {
  const set = new Set(served);
  const slots = REVERSE_FAMILIES.filter((family) => set.has(family.name)).map((family) => family.offer);
  return fillSlots(
    slots,
    REVERSE_FAMILIES.map((family) => family.offer),
  );
}
