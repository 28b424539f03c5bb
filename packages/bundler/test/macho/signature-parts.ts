const MACH_HEADER_64_SIZE = 32;
const LC_CODE_SIGNATURE = 0x1d;
const HEADER = { ncmds: 16 } as const;
const LOAD_COMMAND = { cmd: 0, cmdsize: 4, dataoff: 8, datasize: 12 } as const;
const SUPERBLOB = { length: 4, count: 8 } as const;
const SUPERBLOB_HEADER_SIZE = 12;
/** Field offsets of a SuperBlob index entry. */
export const BLOB_INDEX = { type: 0, offset: 4 } as const;
const BLOB_INDEX_ENTRY_SIZE = 8;
const BLOB = { magic: 0, length: 4 } as const;
/** Field offsets of the CodeDirectory header (big-endian). */
export const CD = {
  version: 8,
  flags: 12,
  hashOffset: 16,
  identOffset: 20,
  nSpecialSlots: 24,
  nCodeSlots: 28,
  codeLimit: 32,
  hashSize: 36,
  hashType: 37,
  pageSize: 39,
  execSegBase: 64,
  execSegLimit: 72,
  execSegFlags: 80,
} as const;
const CODEDIRECTORY_SLOT = 0;
const SHA256_SIZE = 32;

/** One blob of the SuperBlob, as its index and header say. */
export interface SignatureBlob {
  slot: number;
  magic: number;
  length: number;
}

/** The parts of a file's signature that tests look at or tamper with (offsets are file offsets). */
export interface SignatureParts {
  /** File offset of the `LC_CODE_SIGNATURE` command. */
  command: number;
  dataoff: number;
  datasize: number;
  superBlobLength: number;
  /** Offset of the SuperBlob's first index entry. */
  blobIndexOffset: number;
  blobs: SignatureBlob[];
  codeDirectory: number;
  /** The CodeDirectory's header fields. */
  fields: Record<keyof typeof CD, number | bigint>;
  identifier: string;
  /** Offset of the CodeDirectory's flags word. */
  flagsOffset: number;
  /** Offset of code slot 0's hash; slot n is n hashes later. */
  codeSlotsOffset: number;
  /** Offset of special slot -2 (requirements). */
  requirementsSlotOffset: number;
}

/** Reads, with plain reads and no checks, where the parts of a signed file's signature are. */
export function signatureParts(file: Buffer): SignatureParts {
  let at = MACH_HEADER_64_SIZE;
  for (let index = 0; index < loadCommandCount(file); index++) {
    if (file.readUInt32LE(at + LOAD_COMMAND.cmd) === LC_CODE_SIGNATURE) return partsAt(file, at);
    at += file.readUInt32LE(at + LOAD_COMMAND.cmdsize);
  }
  throw new Error("the file has no LC_CODE_SIGNATURE");
}

/** The number of load commands. */
export function loadCommandCount(file: Buffer): number {
  return file.readUInt32LE(HEADER.ncmds);
}

function partsAt(file: Buffer, command: number): SignatureParts {
  const dataoff = file.readUInt32LE(command + LOAD_COMMAND.dataoff);
  const blobs: (SignatureBlob & { offset: number })[] = [];
  for (let index = 0; index < file.readUInt32BE(dataoff + SUPERBLOB.count); index++) {
    const entry = dataoff + SUPERBLOB_HEADER_SIZE + index * BLOB_INDEX_ENTRY_SIZE;
    const offset = dataoff + file.readUInt32BE(entry + BLOB_INDEX.offset);
    blobs.push({
      slot: file.readUInt32BE(entry + BLOB_INDEX.type),
      offset,
      magic: file.readUInt32BE(offset + BLOB.magic),
      length: file.readUInt32BE(offset + BLOB.length),
    });
  }
  const codeDirectory = blobs.find((blob) => blob.slot === CODEDIRECTORY_SLOT)!.offset;
  const read = (field: number, size: number) =>
    size === 1
      ? file.readUInt8(codeDirectory + field)
      : size === 4
        ? file.readUInt32BE(codeDirectory + field)
        : file.readBigUInt64BE(codeDirectory + field);
  const fields = Object.fromEntries(
    Object.entries(CD).map(([name, field]) => [name, read(field, fieldSize(name))]),
  ) as SignatureParts["fields"];
  const identifierStart = codeDirectory + Number(fields.identOffset);
  const hashes = codeDirectory + Number(fields.hashOffset);
  return {
    command,
    dataoff,
    datasize: file.readUInt32LE(command + LOAD_COMMAND.datasize),
    superBlobLength: file.readUInt32BE(dataoff + SUPERBLOB.length),
    blobIndexOffset: dataoff + SUPERBLOB_HEADER_SIZE,
    blobs: blobs.map(({ slot, magic, length }) => ({ slot, magic, length })),
    codeDirectory,
    fields,
    identifier: file.toString("utf8", identifierStart, file.indexOf(0, identifierStart)),
    flagsOffset: codeDirectory + CD.flags,
    codeSlotsOffset: hashes,
    requirementsSlotOffset: hashes - 2 * SHA256_SIZE,
  };
}

function fieldSize(name: string): number {
  if (name.startsWith("execSeg")) return 8;
  return ["hashSize", "hashType", "pageSize"].includes(name) ? 1 : 4;
}

/** Flips the bits of `mask` in the byte at `offset`. */
export function flipBits(file: Buffer, offset: number, mask: number): void {
  file.writeUInt8(file.readUInt8(offset) ^ mask, offset);
}
