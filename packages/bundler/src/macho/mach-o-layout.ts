/** `MH_MAGIC_64`: a thin 64-bit Mach-O file, little-endian as it is on x86_64 and arm64. */
const MH_MAGIC_64 = 0xfeedfacf;
/** `MH_EXECUTE`: the file type of a main executable. */
export const MH_EXECUTE = 0x2;
const LC_SEGMENT_64 = 0x19;
/** `LC_CODE_SIGNATURE`: a `linkedit_data_command` locating the signature in `__LINKEDIT`. */
export const LC_CODE_SIGNATURE = 0x1d;
/** Size of `mach_header_64`; the load commands follow it. */
export const MACH_HEADER_64_SIZE = 32;
/** Size of a `linkedit_data_command` (cmd, cmdsize, dataoff, datasize). */
export const LINKEDIT_DATA_COMMAND_SIZE = 16;

/** Field offsets of `mach_header_64`. */
export const HEADER = { magic: 0, cpuType: 4, fileType: 12, ncmds: 16, sizeofcmds: 20 } as const;
/** Field offsets of every load command. */
const LOAD_COMMAND = { cmd: 0, cmdsize: 4 } as const;
/** Field offsets of `segment_command_64`. */
export const SEGMENT = { name: 8, vmaddr: 24, vmsize: 32, fileoff: 40, filesize: 48, nsects: 64 } as const;
/** Field offsets of a `linkedit_data_command`. */
export const LINKEDIT_DATA = { dataoff: 8, datasize: 12 } as const;

const MH_MAGIC = 0xfeedface;
const MH_CIGAM_64 = 0xcffaedfe;
const FAT_MAGIC = 0xcafebabe;
const FAT_MAGIC_64 = 0xcafebabf;
const SEGMENT_COMMAND_64_SIZE = 72;
const SECTION_64_SIZE = 80;
const SEGMENT_NAME_SIZE = 16;
/** Field offsets of `section_64`. */
const SECTION = { offset: 48, flags: 64 } as const;
const SECTION_TYPE_MASK = 0xff;
/** Section types whose contents are zeros made at load time, not bytes of the file. */
const ZEROFILL_SECTION_TYPES = new Set([0x1, 0xc, 0x12]);
/** Smallest load command: cmd and cmdsize. */
const LOAD_COMMAND_HEADER_SIZE = 8;

/** One load command: its type and where it sits in the file. */
export interface LoadCommand {
  cmd: number;
  /** File offset of the command. */
  offset: number;
  size: number;
}

/** An `LC_SEGMENT_64` command and the file bytes it maps. */
export interface Segment {
  name: string;
  /** File offset of the `LC_SEGMENT_64` command. */
  commandOffset: number;
  vmaddr: number;
  vmsize: number;
  fileoff: number;
  filesize: number;
  /** File offsets of its sections that have bytes in the file (zero-fill sections have none). */
  sectionOffsets: number[];
}

/** An `LC_CODE_SIGNATURE` command: where the signature blob is. */
export interface CodeSignatureCommand extends LoadCommand {
  dataoff: number;
  datasize: number;
}

/** The header and load commands of a thin 64-bit Mach-O file. */
export interface MachOLayout {
  fileSize: number;
  cpuType: number;
  fileType: number;
  /** Bytes of load commands (`sizeofcmds`); they start at {@link MACH_HEADER_64_SIZE}. */
  sizeOfCommands: number;
  commands: LoadCommand[];
  segments: Segment[];
  codeSignature: CodeSignatureCommand | undefined;
}

/**
 * Reads the header and load commands of a thin 64-bit little-endian Mach-O file. Throws
 * an `Error` naming `path` for a universal (fat) file, a 32-bit or big-endian one, a file
 * that is no Mach-O at all, or load commands that run past their space or the file.
 */
export function readMachOLayout(bytes: Buffer, path: string): MachOLayout {
  assertThin64LittleEndian(bytes, path);
  const sizeOfCommands = bytes.readUInt32LE(HEADER.sizeofcmds);
  const commandsEnd = MACH_HEADER_64_SIZE + sizeOfCommands;
  if (commandsEnd > bytes.length) {
    throw malformed(path, `its load commands (${sizeOfCommands} bytes) run past the end of the file`);
  }
  const commands = readLoadCommands(bytes, commandsEnd, path);
  const signature = commands.find((command) => command.cmd === LC_CODE_SIGNATURE);
  return {
    fileSize: bytes.length,
    cpuType: bytes.readUInt32LE(HEADER.cpuType),
    fileType: bytes.readUInt32LE(HEADER.fileType),
    sizeOfCommands,
    commands,
    segments: commands
      .filter((command) => command.cmd === LC_SEGMENT_64)
      .map((command) => readSegment(bytes, command, path)),
    codeSignature: signature && readCodeSignatureCommand(bytes, signature, path),
  };
}

/** Throws unless `bytes` start with the magic number of a thin 64-bit little-endian Mach-O file. */
function assertThin64LittleEndian(bytes: Buffer, path: string): void {
  if (bytes.length < MACH_HEADER_64_SIZE) throw malformed(path, `it is only ${bytes.length} bytes long`);
  const magicBE = bytes.readUInt32BE(HEADER.magic);
  if (magicBE === FAT_MAGIC || magicBE === FAT_MAGIC_64) {
    throw malformed(path, "it is a universal (fat) binary; sign each architecture's thin binary instead");
  }
  const magic = bytes.readUInt32LE(HEADER.magic);
  if (magic === MH_MAGIC) throw malformed(path, "it is a 32-bit Mach-O file");
  if (magic === MH_CIGAM_64) throw malformed(path, "it is a big-endian Mach-O file");
  if (magic !== MH_MAGIC_64) throw malformed(path, "it does not start with a Mach-O magic number");
}

/** The header's `ncmds` load commands, each within `commandsEnd`. */
function readLoadCommands(bytes: Buffer, commandsEnd: number, path: string): LoadCommand[] {
  const ncmds = bytes.readUInt32LE(HEADER.ncmds);
  const commands: LoadCommand[] = [];
  let offset = MACH_HEADER_64_SIZE;
  for (let index = 0; index < ncmds; index++) {
    if (offset + LOAD_COMMAND_HEADER_SIZE > commandsEnd) {
      throw malformed(path, `load command ${index} of ${ncmds} lies past sizeofcmds`);
    }
    const command = {
      cmd: bytes.readUInt32LE(offset + LOAD_COMMAND.cmd),
      offset,
      size: bytes.readUInt32LE(offset + LOAD_COMMAND.cmdsize),
    };
    if (command.size < LOAD_COMMAND_HEADER_SIZE || offset + command.size > commandsEnd) {
      throw malformed(path, `load command ${index} (0x${command.cmd.toString(16)}) has a bad size`);
    }
    commands.push(command);
    offset += command.size;
  }
  return commands;
}

function readCodeSignatureCommand(bytes: Buffer, command: LoadCommand, path: string): CodeSignatureCommand {
  if (command.size < LINKEDIT_DATA_COMMAND_SIZE) throw malformed(path, "LC_CODE_SIGNATURE is too short");
  return {
    ...command,
    dataoff: bytes.readUInt32LE(command.offset + LINKEDIT_DATA.dataoff),
    datasize: bytes.readUInt32LE(command.offset + LINKEDIT_DATA.datasize),
  };
}

/** The segment called `name`, or an `Error` naming `path` when there is none. */
export function segmentNamed(layout: MachOLayout, name: string, path: string): Segment {
  const segment = layout.segments.find((candidate) => candidate.name === name);
  if (!segment) throw malformed(path, `it has no ${name} segment`);
  return segment;
}

/**
 * Free bytes between the end of the load commands and the first bytes of the file that
 * a segment or section maps (other than the header itself): room for new load commands.
 */
export function loadCommandRoom(layout: MachOLayout): number {
  const commandsEnd = MACH_HEADER_64_SIZE + layout.sizeOfCommands;
  let firstContent = layout.fileSize;
  for (const segment of layout.segments) {
    if (segment.fileoff > 0 && segment.filesize > 0) firstContent = Math.min(firstContent, segment.fileoff);
    for (const offset of segment.sectionOffsets) firstContent = Math.min(firstContent, offset);
  }
  return firstContent - commandsEnd;
}

function readSegment(bytes: Buffer, command: LoadCommand, path: string): Segment {
  if (command.size < SEGMENT_COMMAND_64_SIZE) throw malformed(path, "an LC_SEGMENT_64 command is too short");
  const at = command.offset;
  const name = bytes
    .toString("latin1", at + SEGMENT.name, at + SEGMENT.name + SEGMENT_NAME_SIZE)
    .replace(/\0.*$/s, "");
  const nsects = bytes.readUInt32LE(at + SEGMENT.nsects);
  if (SEGMENT_COMMAND_64_SIZE + nsects * SECTION_64_SIZE > command.size) {
    throw malformed(path, `the ${name} segment command is too short for its ${nsects} sections`);
  }
  const sectionOffsets: number[] = [];
  for (let index = 0; index < nsects; index++) {
    const section = at + SEGMENT_COMMAND_64_SIZE + index * SECTION_64_SIZE;
    const type = bytes.readUInt32LE(section + SECTION.flags) & SECTION_TYPE_MASK;
    const offset = bytes.readUInt32LE(section + SECTION.offset);
    if (offset > 0 && !ZEROFILL_SECTION_TYPES.has(type)) sectionOffsets.push(offset);
  }
  return {
    name,
    commandOffset: at,
    vmaddr: readUInt64(bytes, at + SEGMENT.vmaddr, path),
    vmsize: readUInt64(bytes, at + SEGMENT.vmsize, path),
    fileoff: readUInt64(bytes, at + SEGMENT.fileoff, path),
    filesize: readUInt64(bytes, at + SEGMENT.filesize, path),
    sectionOffsets,
  };
}

function readUInt64(bytes: Buffer, offset: number, path: string): number {
  const value = bytes.readBigUInt64LE(offset);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw malformed(path, "a segment field is out of range");
  return Number(value);
}

function malformed(path: string, why: string): Error {
  return new Error(`cannot use ${path} as a thin 64-bit Mach-O file: ${why}`);
}
