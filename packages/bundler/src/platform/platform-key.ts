import { open } from "node:fs/promises";

/**
 * A platform key as registries spell it (protocol-v2-notes, "Binary distribution
 * layout"): `linux-x86_64`, `linux-aarch64`, `darwin-arm64`, `darwin-x86_64`,
 * `windows-x86_64`. Linux spells 64-bit ARM `aarch64`, macOS `arm64`, as those keys do.
 */
export type PlatformKey = `${"linux" | "darwin" | "windows" | "freebsd"}-${string}`;

/** Operating system and CPU read from an executable's header. */
export interface BinaryPlatform {
  os: "linux" | "darwin" | "windows" | "freebsd";
  /** Architecture in the key's spelling (`x86_64`, `aarch64`, `arm64`, …). */
  arch: string;
  format: "elf" | "macho" | "pe";
  key: PlatformKey;
}

const ELF_MACHINES: Record<number, string> = {
  3: "x86",
  40: "armv7l",
  62: "x86_64",
  183: "aarch64",
  21: "ppc64le",
  22: "s390x",
  243: "riscv64",
};
const ELF_OSABI_FREEBSD = 9;

const MACHO_CPU_X86_64 = 0x01000007;
const MACHO_CPU_ARM64 = 0x0100000c;

const PE_MACHINES: Record<number, string> = {
  34404: "x86_64",
  43620: "arm64",
  332: "x86",
};

/** Node's architecture names (`process.arch`) in the keys' spelling, where they differ. */
const ARCH_NAMES: Record<string, string> = { x64: "x86_64", arm: "armv7l", ia32: "x86", ppc64: "ppc64le" };

/** Builds the key from an OS and an architecture in Node's spelling (`process.arch`). */
export function platformKey(os: NodeJS.Platform, arch: string): PlatformKey {
  const osName = os === "win32" ? "windows" : os;
  if (osName !== "linux" && osName !== "darwin" && osName !== "windows" && osName !== "freebsd") {
    throw new Error(`no platform key for the operating system "${os}"`);
  }
  // 64-bit ARM is `aarch64` on Linux and FreeBSD, `arm64` on macOS and Windows.
  const arm64 = osName === "linux" || osName === "freebsd" ? "aarch64" : "arm64";
  const archName = arch === "arm64" ? arm64 : (ARCH_NAMES[arch] ?? arch);
  return `${osName}-${archName}`;
}

/** The platform key of the machine this build runs on. */
export function hostPlatform(): PlatformKey {
  return platformKey(process.platform, process.arch);
}

/**
 * Reads the platform of an executable from its ELF, Mach-O or PE header. Throws an
 * `Error` naming the file when it is none of them (or a universal Mach-O binary,
 * which has no single platform).
 */
export async function platformOfBinary(path: string): Promise<BinaryPlatform> {
  const file = await open(path, "r");
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    const header = head.subarray(0, bytesRead);
    if (isElf(header)) return elfPlatform(header, path);
    const macho = machoPlatform(header, path);
    if (macho) return macho;
    if (header.length >= 0x40 && header.toString("latin1", 0, 2) === "MZ") {
      const peOffset = header.readUInt32LE(0x3c);
      const pe = Buffer.alloc(6);
      await file.read(pe, 0, 6, peOffset);
      if (pe.toString("latin1", 0, 4) !== "PE\0\0")
        throw notExecutable(path, "MZ header without a PE signature");
      return known(path, "windows", PE_MACHINES[pe.readUInt16LE(4)], "pe", pe.readUInt16LE(4));
    }
    throw notExecutable(path, "not an ELF, Mach-O or PE executable");
  } finally {
    await file.close();
  }
}

function isElf(header: Buffer): boolean {
  return header.length >= 20 && header.readUInt32BE(0) === 0x7f454c46;
}

function elfPlatform(header: Buffer, path: string): BinaryPlatform {
  const littleEndian = header[5] === 1;
  const machine = littleEndian ? header.readUInt16LE(18) : header.readUInt16BE(18);
  const os = header[7] === ELF_OSABI_FREEBSD ? "freebsd" : "linux";
  return known(path, os, ELF_MACHINES[machine], "elf", machine);
}

function machoPlatform(header: Buffer, path: string): BinaryPlatform | undefined {
  if (header.length < 8) return undefined;
  const magicBE = header.readUInt32BE(0);
  if (magicBE === 0xcafebabe || magicBE === 0xcafebabf) {
    throw notExecutable(path, "a universal (fat) Mach-O binary; pass the node binary of one architecture");
  }
  const magicLE = header.readUInt32LE(0);
  if (magicLE !== 0xfeedfacf && magicLE !== 0xfeedface) return undefined;
  const cpu = header.readUInt32LE(4);
  const arch = cpu === MACHO_CPU_ARM64 ? "arm64" : cpu === MACHO_CPU_X86_64 ? "x86_64" : undefined;
  return known(path, "darwin", arch, "macho", cpu);
}

function known(
  path: string,
  os: BinaryPlatform["os"],
  arch: string | undefined,
  format: BinaryPlatform["format"],
  machine: number,
): BinaryPlatform {
  if (!arch) throw notExecutable(path, `${format} executable for an unknown CPU (0x${machine.toString(16)})`);
  return { os, arch, format, key: `${os}-${arch}` };
}

function notExecutable(path: string, why: string): Error {
  return new Error(`cannot tell the platform of ${path}: ${why}`);
}
