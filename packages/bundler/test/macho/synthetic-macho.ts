import { writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Options of {@link syntheticMachO}. */
export interface SyntheticMachOOptions {
  /** File offset of the `__text` section; {@link COMMANDS_END} leaves no room for another load command. */
  textSectionOffset?: number;
  /** Bytes of `__LINKEDIT`, which ends the file. Default: a multiple of neither 16 nor a page. */
  linkEditSize?: number;
  /** Text placed in `__text` (e.g. postject's sentinel fuse). */
  marker?: string;
}

const MH_MAGIC_64 = 0xfeedfacf;
const CPU_TYPE_ARM64 = 0x0100000c;
const MH_EXECUTE = 0x2;
/** MH_NOUNDEFS | MH_DYLDLINK | MH_TWOLEVEL | MH_PIE. */
const MH_FLAGS = 0x00200085;
const LC_SEGMENT_64 = 0x19;
const HEADER_SIZE = 32;
const SEGMENT_COMMAND_SIZE = 72;
const SECTION_SIZE = 80;
const HEADER = { magic: 0, cpuType: 4, fileType: 12, ncmds: 16, sizeofcmds: 20, flags: 24 } as const;
const SEGMENT = {
  cmd: 0,
  cmdsize: 4,
  name: 8,
  vmaddr: 24,
  vmsize: 32,
  fileoff: 40,
  filesize: 48,
  maxprot: 56,
  initprot: 60,
  nsects: 64,
} as const;
const SECTION = { name: 0, segmentName: 16, addr: 32, size: 40, offset: 48, flags: 64 } as const;
const S_ATTR_PURE_INSTRUCTIONS = 0x80000400;
const VM_PROT_NONE = 0;
const VM_PROT_READ = 1;
const VM_PROT_READ_EXECUTE = 5;
const VM_BASE = 0x1_0000_0000;
const SEGMENT_PAGE = 0x4000;
/** Size of `__TEXT`, which starts at the file's start. */
export const TEXT_SIZE = 0x4000;
const DEFAULT_TEXT_SECTION_OFFSET = 0x1000;
const DEFAULT_LINKEDIT_SIZE = 0x1234;
/** Where in `__text` the marker goes. */
const MARKER_OFFSET = 0x100;

/** End of the synthetic file's load commands (`__PAGEZERO`, `__TEXT` with one section, `__LINKEDIT`). */
export const COMMANDS_END = HEADER_SIZE + 3 * SEGMENT_COMMAND_SIZE + SECTION_SIZE;
/** File offset of `__LINKEDIT` (right after `__TEXT`). */
export const LINKEDIT_OFFSET = TEXT_SIZE;
/** File offset of the `__LINKEDIT` segment command, the last of the synthetic file's own commands. */
const LINKEDIT_COMMAND = COMMANDS_END - SEGMENT_COMMAND_SIZE;

/**
 * A small unsigned thin arm64 executable: header, `__PAGEZERO`, `__TEXT` (16 KiB from the
 * file's start, with a `__text` section) and `__LINKEDIT` ending the file, filled with
 * bytes that differ from page to page, so that every page has its own hash.
 */
export function syntheticMachO(options: SyntheticMachOOptions = {}): Buffer {
  const textSectionOffset = options.textSectionOffset ?? DEFAULT_TEXT_SECTION_OFFSET;
  const linkEditSize = options.linkEditSize ?? DEFAULT_LINKEDIT_SIZE;
  const file = Buffer.alloc(TEXT_SIZE + linkEditSize);
  for (let offset = textSectionOffset; offset < file.length; offset++) {
    file[offset] = (offset * 31 + (offset >> 12) * 7 + (offset >> 5)) & 0xff;
  }
  if (options.marker) file.write(options.marker, textSectionOffset + MARKER_OFFSET, "latin1");

  file.writeUInt32LE(MH_MAGIC_64, HEADER.magic);
  file.writeUInt32LE(CPU_TYPE_ARM64, HEADER.cpuType);
  file.writeUInt32LE(MH_EXECUTE, HEADER.fileType);
  file.writeUInt32LE(3, HEADER.ncmds);
  file.writeUInt32LE(COMMANDS_END - HEADER_SIZE, HEADER.sizeofcmds);
  file.writeUInt32LE(MH_FLAGS, HEADER.flags);
  let at = HEADER_SIZE;
  at = writeSegment(file, at, {
    name: "__PAGEZERO",
    vmaddr: 0,
    vmsize: VM_BASE,
    fileoff: 0,
    filesize: 0,
    prot: VM_PROT_NONE,
  });
  at = writeSegment(file, at, {
    name: "__TEXT",
    vmaddr: VM_BASE,
    vmsize: TEXT_SIZE,
    fileoff: 0,
    filesize: TEXT_SIZE,
    prot: VM_PROT_READ_EXECUTE,
    sectionOffset: textSectionOffset,
  });
  writeSegment(file, at, {
    name: "__LINKEDIT",
    vmaddr: VM_BASE + TEXT_SIZE,
    vmsize: Math.ceil(linkEditSize / SEGMENT_PAGE) * SEGMENT_PAGE,
    fileoff: LINKEDIT_OFFSET,
    filesize: linkEditSize,
    prot: VM_PROT_READ,
  });
  return file;
}

/** Writes {@link syntheticMachO} to `dir/name` (mode 0755) and returns its path. */
export async function writeSyntheticMachO(
  dir: string,
  name: string,
  options: SyntheticMachOOptions = {},
): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, syntheticMachO(options), { mode: 0o755 });
  return path;
}

/** `__LINKEDIT`'s sizes in a file made by {@link syntheticMachO} (and signed or unsigned since). */
export function linkEditSizes(file: Buffer): { filesize: number; vmsize: number } {
  return {
    filesize: Number(file.readBigUInt64LE(LINKEDIT_COMMAND + SEGMENT.filesize)),
    vmsize: Number(file.readBigUInt64LE(LINKEDIT_COMMAND + SEGMENT.vmsize)),
  };
}

interface SegmentFields {
  name: string;
  vmaddr: number;
  vmsize: number;
  fileoff: number;
  filesize: number;
  prot: number;
  /** When set, the segment has one `__text` section from here to its end. */
  sectionOffset?: number;
}

/** Writes an `LC_SEGMENT_64` (and its section) at `at`; returns the offset after it. */
function writeSegment(file: Buffer, at: number, fields: SegmentFields): number {
  const sections = fields.sectionOffset === undefined ? 0 : 1;
  file.writeUInt32LE(LC_SEGMENT_64, at + SEGMENT.cmd);
  file.writeUInt32LE(SEGMENT_COMMAND_SIZE + sections * SECTION_SIZE, at + SEGMENT.cmdsize);
  file.write(fields.name, at + SEGMENT.name, "latin1");
  file.writeBigUInt64LE(BigInt(fields.vmaddr), at + SEGMENT.vmaddr);
  file.writeBigUInt64LE(BigInt(fields.vmsize), at + SEGMENT.vmsize);
  file.writeBigUInt64LE(BigInt(fields.fileoff), at + SEGMENT.fileoff);
  file.writeBigUInt64LE(BigInt(fields.filesize), at + SEGMENT.filesize);
  file.writeUInt32LE(fields.prot, at + SEGMENT.maxprot);
  file.writeUInt32LE(fields.prot, at + SEGMENT.initprot);
  file.writeUInt32LE(sections, at + SEGMENT.nsects);
  if (fields.sectionOffset === undefined) return at + SEGMENT_COMMAND_SIZE;
  const section = at + SEGMENT_COMMAND_SIZE;
  file.write("__text", section + SECTION.name, "latin1");
  file.write(fields.name, section + SECTION.segmentName, "latin1");
  file.writeBigUInt64LE(BigInt(fields.vmaddr + fields.sectionOffset), section + SECTION.addr);
  file.writeBigUInt64LE(BigInt(fields.filesize - fields.sectionOffset), section + SECTION.size);
  file.writeUInt32LE(fields.sectionOffset, section + SECTION.offset);
  file.writeUInt32LE(S_ATTR_PURE_INSTRUCTIONS, section + SECTION.flags);
  return section + SECTION_SIZE;
}
