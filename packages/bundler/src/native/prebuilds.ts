import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** What a prebuild must fit: node-gyp-build's view of the running Node and machine. */
export interface PrebuildTarget {
  platform: string;
  arch: string;
  /** `process.versions.modules`, the ABI a non-N-API addon is built for. */
  abi: string;
  /** Major version of libuv. */
  uv: string;
  armv: string;
  libc: "glibc" | "musl";
}

/** One `.node` file of a `prebuilds/<platform>-<arch>/` folder, by the tags in its name. */
interface PrebuildTags {
  file: string;
  specificity: number;
  runtime?: string;
  napi?: boolean;
  abi?: string;
  uv?: string;
  armv?: string;
  libc?: string;
}

/** This process and machine, as node-gyp-build 4.8 describes them (without its env overrides). */
export function hostPrebuildTarget(): PrebuildTarget {
  const { platform, arch } = process;
  const variables = (process.config?.variables ?? {}) as { arm_version?: string };
  return {
    platform,
    arch,
    abi: process.versions.modules,
    uv: (process.versions.uv ?? "").split(".")[0]!,
    armv: arch === "arm64" ? "8" : (variables.arm_version ?? ""),
    libc: platform === "linux" && existsSync("/etc/alpine-release") ? "musl" : "glibc",
  };
}

/**
 * The prebuild node-gyp-build 4.8 picks from a `prebuilds` folder: the
 * `<platform>-<arch>[+<arch>…]` folder for the target (single-architecture first), then
 * the file whose tags fit (`node`/`napi` runtime, `abi…`, `uv…`, `armv…`, `glibc`/`musl`),
 * preferring the Node runtime, then an ABI build over N-API, then the most tags.
 */
export function pickPrebuild(prebuilds: string, target: PrebuildTarget): string | undefined {
  const folder = filesIn(prebuilds)
    .map(parseTuple)
    .filter((tuple) => tuple?.platform === target.platform && tuple.architectures.includes(target.arch))
    .sort((a, b) => a!.architectures.length - b!.architectures.length)[0];
  if (!folder) return undefined;
  const winner = filesIn(join(prebuilds, folder.name))
    .map(parseTags)
    .filter((tags): tags is PrebuildTags => tags !== undefined && fits(tags, target))
    .sort(byPreference)[0];
  return winner && join(prebuilds, folder.name, winner.file);
}

function parseTuple(name: string): { name: string; platform: string; architectures: string[] } | undefined {
  const parts = name.split("-");
  if (parts.length !== 2 || !parts[0]) return undefined;
  const architectures = parts[1]!.split("+");
  return architectures.every(Boolean) ? { name, platform: parts[0], architectures } : undefined;
}

function parseTags(file: string): PrebuildTags | undefined {
  const parts = file.split(".");
  if (parts.pop() !== "node") return undefined;
  const tags: PrebuildTags = { file, specificity: 0 };
  for (const tag of parts) {
    if (readTag(tag, tags)) tags.specificity++;
  }
  return tags;
}

/** Records one `prebuildify` file-name tag in `tags`; false for a tag it does not know. */
function readTag(tag: string, tags: PrebuildTags): boolean {
  if (tag === "node" || tag === "electron" || tag === "node-webkit") tags.runtime = tag;
  else if (tag === "napi") tags.napi = true;
  else if (tag === "glibc" || tag === "musl") tags.libc = tag;
  else return readPrefixedTag(tag, tags);
  return true;
}

/** `abi<N>`, `uv<N>`, `armv<N>`. */
function readPrefixedTag(tag: string, tags: PrebuildTags): boolean {
  if (tag.startsWith("abi")) tags.abi = tag.slice(3);
  else if (tag.startsWith("uv")) tags.uv = tag.slice(2);
  else if (tag.startsWith("armv")) tags.armv = tag.slice(4);
  else return false;
  return true;
}

function fits(tags: PrebuildTags, target: PrebuildTarget): boolean {
  const runtimeAgnostic = tags.runtime === "node" && tags.napi;
  if (tags.runtime && tags.runtime !== "node" && !runtimeAgnostic) return false;
  if (tags.abi && tags.abi !== target.abi && !tags.napi) return false;
  if (tags.uv && tags.uv !== target.uv) return false;
  if (tags.armv && tags.armv !== target.armv) return false;
  return !tags.libc || tags.libc === target.libc;
}

function byPreference(a: PrebuildTags, b: PrebuildTags): number {
  if (a.runtime !== b.runtime) return a.runtime === "node" ? -1 : 1;
  if (a.abi !== b.abi) return a.abi ? -1 : 1;
  return b.specificity - a.specificity;
}

function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
