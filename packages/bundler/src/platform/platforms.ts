import { hostPlatform, type PlatformKey } from "./platform-key.js";

/**
 * The platforms the agent's registry knows (its `KNOWN_PLATFORMS`), in its spelling. A
 * build targets any of them; `"all"` means every one.
 */
export const KNOWN_PLATFORMS = [
  "darwin-arm64",
  "darwin-x86_64",
  "linux-x86_64",
  "linux-aarch64",
  "windows-x86_64",
  "windows-arm64",
] as const;

/** One of {@link KNOWN_PLATFORMS}. */
export type KnownPlatform = (typeof KNOWN_PLATFORMS)[number];

/** Everything the build needs to know about a target platform: the one table of platform facts. */
export interface TargetPlatform {
  key: KnownPlatform;
  os: "darwin" | "linux" | "windows";
  /** Executable format, as read back from the header. */
  format: "elf" | "macho" | "pe";
  /** The CPU in Node's spelling (`process.arch`). */
  nodeArch: "x64" | "arm64";
  /** Node's distribution name: the `node-<dist>` npm package and the mirror's file names. */
  nodeDist: string;
  /** `bun build --compile --target=<bunTarget>`. */
  bunTarget: string;
  /** Suffix of the executable's file name. */
  exeSuffix: "" | ".exe";
  /** The archive format registries expect for it (zip for Windows, as the reference release workflow does). */
  archive: "tar.gz" | "zip";
}

const TABLE: Record<KnownPlatform, TargetPlatform> = {
  "darwin-arm64": {
    key: "darwin-arm64",
    os: "darwin",
    format: "macho",
    nodeArch: "arm64",
    nodeDist: "darwin-arm64",
    bunTarget: "bun-darwin-arm64",
    exeSuffix: "",
    archive: "tar.gz",
  },
  "darwin-x86_64": {
    key: "darwin-x86_64",
    os: "darwin",
    format: "macho",
    nodeArch: "x64",
    nodeDist: "darwin-x64",
    bunTarget: "bun-darwin-x64",
    exeSuffix: "",
    archive: "tar.gz",
  },
  "linux-x86_64": {
    key: "linux-x86_64",
    os: "linux",
    format: "elf",
    nodeArch: "x64",
    nodeDist: "linux-x64",
    bunTarget: "bun-linux-x64",
    exeSuffix: "",
    archive: "tar.gz",
  },
  "linux-aarch64": {
    key: "linux-aarch64",
    os: "linux",
    format: "elf",
    nodeArch: "arm64",
    nodeDist: "linux-arm64",
    bunTarget: "bun-linux-arm64",
    exeSuffix: "",
    archive: "tar.gz",
  },
  "windows-x86_64": {
    key: "windows-x86_64",
    os: "windows",
    format: "pe",
    nodeArch: "x64",
    nodeDist: "win-x64",
    bunTarget: "bun-windows-x64",
    exeSuffix: ".exe",
    archive: "zip",
  },
  "windows-arm64": {
    key: "windows-arm64",
    os: "windows",
    format: "pe",
    nodeArch: "arm64",
    nodeDist: "win-arm64",
    bunTarget: "bun-windows-arm64",
    exeSuffix: ".exe",
    archive: "zip",
  },
};

/** Whether `key` is one of {@link KNOWN_PLATFORMS}. */
export function isKnownPlatform(key: string): key is KnownPlatform {
  return Object.hasOwn(TABLE, key);
}

/** The facts of a known platform. */
export function targetPlatform(key: KnownPlatform): TargetPlatform {
  return TABLE[key];
}

/**
 * Reads a `targets` value: `"all"`, `"host"` or a list of platform keys (duplicates
 * dropped, order kept). Throws a `RangeError` naming an unknown key and the known ones.
 */
export function resolveTargets(targets: "all" | "host" | readonly string[] | undefined): TargetPlatform[] {
  if (targets === undefined || targets === "host") return [hostTarget()];
  if (targets === "all") return KNOWN_PLATFORMS.map(targetPlatform);
  const keys = [...new Set(targets.map((key) => (key === "host" ? hostKnownPlatform() : key)))];
  if (keys.length === 0) throw new RangeError('targets: name at least one platform, or "all"');
  return keys.map((key) => {
    if (!isKnownPlatform(key)) {
      throw new RangeError(`targets: unknown platform "${key}"; known: ${KNOWN_PLATFORMS.join(", ")}`);
    }
    return targetPlatform(key);
  });
}

/** The platform this build runs on, when it is a known one. */
export function hostTarget(): TargetPlatform {
  return targetPlatform(hostKnownPlatform());
}

function hostKnownPlatform(): KnownPlatform {
  const key: PlatformKey = hostPlatform();
  if (!isKnownPlatform(key)) {
    throw new RangeError(
      `this machine is ${key}, which the agent does not run on; name targets among ${KNOWN_PLATFORMS.join(", ")}`,
    );
  }
  return key;
}
