/**
 * The reverse-RPC capability families (protocol-v2-notes: "Manifest additions",
 * "Reverse RPC"), as one table: each family's methods (each with the capability it needs,
 * its default timeout and its params and result schemas), the `host_capabilities` strings
 * that grant them, where those show in `client_capabilities`, and the family's error
 * codes. Plugin-side negotiation, the capability clients (which check replies with the
 * result schemas), the host's router, providers and offer, and the CLI's manifest check
 * all read it; a new family is one new row here, a new method one entry of its `methods`.
 */
import type { FromSchema } from "../schema/from-schema.js";
import type { Schema } from "../schema/schema.js";
import {
  AgentErrorCode,
  EmbeddingsErrorCode,
  ImageErrorCode,
  SamplingErrorCode,
  StorageErrorCode,
  UploadErrorCode,
} from "./error-codes.js";
import { AGENT_METHODS } from "./reverse-methods/agent.js";
import { EMBEDDINGS_METHODS } from "./reverse-methods/embeddings.js";
import { IMAGE_METHODS } from "./reverse-methods/image.js";
import { SAMPLING_METHODS } from "./reverse-methods/sampling.js";
import { FILES_METHODS, STORAGE_METHODS } from "./reverse-methods/storage.js";
import { UPLOAD_METHODS } from "./reverse-methods/upload.js";

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

/** The error codes a family answers with; every family has NOT_GRANTED and INVALID_REQUEST. */
export interface FamilyErrorCodes {
  readonly NOT_GRANTED: number;
  /** Params that do not fit the method's params schema. */
  readonly INVALID_REQUEST: number;
  /** Absent for families whose spec has none (storage, files, agent). */
  readonly NOT_NEGOTIATED?: number;
  readonly [name: string]: number | undefined;
}

/** One reverse method: what it needs, how long a client waits, and its wire shapes. */
export interface ReverseMethodRow {
  /** The `host_capabilities` entry the method needs. */
  readonly capability: string;
  /** How long a client waits for the host by default, in ms. */
  readonly timeoutMs: number;
  /** What the plugin sends (protocol-v2-notes, "Reverse RPC"). */
  readonly params: Schema;
  /** What the host answers; fields hosts may omit are optional. */
  readonly result: Schema;
}

/** One row of the table; `Name` is its key there. */
export interface ReverseFamily<Name extends string = ReverseFamilyName> {
  readonly name: Name;
  /** Method namespaces (before the `/`) whose every method belongs to this family. */
  readonly namespaces: readonly string[];
  /** The family's methods, each with its capability, default timeout and wire shapes. */
  readonly methods: Readonly<Record<string, ReverseMethodRow>>;
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
    methods: SAMPLING_METHODS,
    capability: "llm.sample",
    grants: [{ capability: "llm.sample", announce: { key: "sampling" } }],
    offer: { key: "sampling" },
    codes: SamplingErrorCode,
  },
  storage: {
    name: "storage",
    namespaces: ["storage"],
    methods: STORAGE_METHODS,
    capability: "aps.kv",
    grants: [{ capability: "aps.kv", announce: { key: "storage", flag: "kv" } }],
    offer: { key: "storage", flag: "kv" },
    codes: StorageErrorCode,
  },
  files: {
    name: "files",
    // The reference SDKs send user-scope file calls as `user_files/*`.
    namespaces: ["files", "user_files"],
    methods: FILES_METHODS,
    capability: "aps.files",
    grants: [{ capability: "aps.files", announce: { key: "storage", flag: "files" } }],
    offer: { key: "storage", flag: "files" },
    codes: StorageErrorCode,
  },
  upload: {
    name: "upload",
    // `host/*` is not the family's own namespace: only `host/uploadFile` belongs to it.
    namespaces: [],
    methods: UPLOAD_METHODS,
    capability: "host.upload",
    grants: [{ capability: "host.upload", announce: { key: "upload" } }],
    offer: { key: "upload" },
    codes: UploadErrorCode,
  },
  image: {
    name: "image",
    namespaces: ["image"],
    methods: IMAGE_METHODS,
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
    methods: EMBEDDINGS_METHODS,
    capability: "llm.embed",
    grants: [{ capability: "llm.embed", announce: { key: "embeddings" } }],
    offer: { key: "embeddings" },
    codes: EmbeddingsErrorCode,
  },
  agent: {
    name: "agent",
    namespaces: ["agent"],
    methods: AGENT_METHODS,
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

/** A reverse method of the table, with its row and family. */
export interface ReverseMethodSpec<M extends ReverseMethod = ReverseMethod> extends ReverseMethodRow {
  readonly method: M;
  readonly family: ReverseFamily;
}

/** Where a reverse call goes: its family, the capability it needs, and its row when the table lists it. */
export interface ReverseRoute {
  readonly family: ReverseFamily;
  readonly capability: string;
  /** Absent for a method of a family's namespace the table does not list (e.g. `user_files/list`). */
  readonly spec?: ReverseMethodSpec;
}

const BY_METHOD = new Map<string, ReverseMethodSpec>(
  REVERSE_FAMILIES.flatMap((family) =>
    Object.entries(family.methods).map(
      ([method, row]) => [method, { ...row, method: method as ReverseMethod, family }] as const,
    ),
  ),
);
const BY_NAMESPACE = new Map<string, ReverseFamily>(
  REVERSE_FAMILIES.flatMap((family) => family.namespaces.map((namespace) => [namespace, family] as const)),
);

/**
 * The one method lookup: the family, capability and row of `method`, or undefined for a
 * method no family has. A method of a family's namespace that the table does not list
 * needs the family's `capability`.
 */
export function reverseRoute(method: string): ReverseRoute | undefined {
  const spec = BY_METHOD.get(method);
  if (spec) return { family: spec.family, capability: spec.capability, spec };
  const slash = method.indexOf("/");
  const family = slash > 0 ? BY_NAMESPACE.get(method.slice(0, slash)) : undefined;
  return family && { family, capability: family.capability };
}

/** The row of a method the table lists; throws for any other name. */
export function reverseMethodSpec<M extends ReverseMethod>(method: M): ReverseMethodSpec<M> {
  const spec = BY_METHOD.get(method);
  if (!spec)
    throw new Error(`${method} is not a method of the capability-family table (wire/capability-families.ts)`);
  return spec as ReverseMethodSpec<M>;
}

/** Every method the table lists, in table order. */
export const REVERSE_METHODS: readonly ReverseMethodSpec[] = [...BY_METHOD.values()];

/** The params a method's row accepts, as a TypeScript type. */
export type ReverseParams<M extends ReverseMethod> = FromSchema<ReverseMethodRowOf<M>["params"]>;

/** The result a method's row accepts, as a TypeScript type. */
export type ReverseResult<M extends ReverseMethod> = FromSchema<ReverseMethodRowOf<M>["result"]>;

/** The row of `M` in the table, with its literal schemas. */
export type ReverseMethodRowOf<M extends ReverseMethod> = {
  [K in ReverseFamilyName]: M extends keyof (typeof CAPABILITY_FAMILIES)[K]["methods"]
    ? (typeof CAPABILITY_FAMILIES)[K]["methods"][M]
    : never;
}[ReverseFamilyName];

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
