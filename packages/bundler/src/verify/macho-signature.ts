import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";

/**
 * What {@link verifyMachOSignature} found in a Mach-O file's embedded code signature.
 * The fields after `adhoc` describe the CodeDirectory that was checked, when one was found.
 */
export interface MachOSignatureReport {
  /** True when the file has a signature and every check passed (`problems` is empty). */
  valid: boolean;
  /** What is wrong, in words, e.g. `page 3 of 21 (file offset 0x3000) does not match its hash …`. */
  problems: string[];
  /** The signing identifier in the CodeDirectory. */
  identifier?: string;
  /** True for an ad-hoc signature (`CS_ADHOC`): hashes only, no certificate. */
  adhoc: boolean;
  /** Hash of the CodeDirectory checked: `sha1`, `sha256`, `sha256-truncated` or `sha384`. */
  hashType?: string;
  /** Bytes hashed per code slot; 0 means one hash over all the code. */
  pageSize?: number;
  /** Number of code (page) hashes. */
  codeSlots?: number;
  /** Bytes of the file the code hashes cover, from its start. */
  codeLimit?: number;
}

// This verifier parses the file on its own, sharing nothing with the signer (src/macho),
// so that a mistake in the signer's parsing cannot also hide here.

const MH_MAGIC_64 = 0xfeedfacf;
const FAT_MAGICS = new Set([0xcafebabe, 0xcafebabf]);
const MH_EXECUTE = 0x2;
const MACH_HEADER_64_SIZE = 32;
const LOAD_COMMAND_MIN_SIZE = 8;
const SEGMENT_COMMAND_64_MIN_SIZE = 72;
const LINKEDIT_DATA_COMMAND_SIZE = 16;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
/** Field offsets of `mach_header_64`, load commands, `segment_command_64` and `linkedit_data_command`. */
const HEADER = { magic: 0, fileType: 12, ncmds: 16, sizeofcmds: 20 } as const;
const LOAD_COMMAND = { cmd: 0, cmdsize: 4 } as const;
const SEGMENT = { name: 8, nameEnd: 24, fileoff: 40, filesize: 48 } as const;
const LINKEDIT_DATA = { dataoff: 8, datasize: 12 } as const;
const TEXT_SEGMENT = "__TEXT";
const LINKEDIT_SEGMENT = "__LINKEDIT";

const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSSLOT_CODEDIRECTORY = 0;
const CSSLOT_ALTERNATE_CODEDIRECTORIES = [0x1000, 0x1001, 0x1002, 0x1003, 0x1004];
const CS_ADHOC = 0x2;
const CS_EXECSEG_MAIN_BINARY = 0x1;
const SUPERBLOB_HEADER_SIZE = 12;
const BLOB_INDEX_ENTRY_SIZE = 8;
const BLOB_HEADER_SIZE = 8;
/** Field offsets (big-endian) of every blob's header, the SuperBlob's header and its index entries. */
const BLOB = { magic: 0, length: 4 } as const;
const SUPERBLOB = { ...BLOB, count: 8 } as const;
const BLOB_INDEX = { type: 0, offset: 4 } as const;
/** CodeDirectory versions that added the fields read here. */
const CD_VERSION_CODE_LIMIT_64 = 0x20300;
const CD_VERSION_EXEC_SEGMENT = 0x20400;
/** Size of the CodeDirectory header up to and including each version's fields. */
const CD_BASE_SIZE = 44;
const CD_CODE_LIMIT_64_SIZE = 64;
const CD_EXEC_SEGMENT_SIZE = 88;
const CD = {
  ...BLOB,
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
  codeLimit64: 56,
  execSegBase: 64,
  execSegLimit: 72,
  execSegFlags: 80,
} as const;
const SHA256_HASH_TYPE = 2;
const HASH_TYPES: Record<number, { name: string; algorithm: string; size: number }> = {
  1: { name: "sha1", algorithm: "sha1", size: 20 },
  2: { name: "sha256", algorithm: "sha256", size: 32 },
  3: { name: "sha256-truncated", algorithm: "sha256", size: 20 },
  4: { name: "sha384", algorithm: "sha384", size: 48 },
};
/** Blobs whose hash a CodeDirectory keeps in special slot -type. */
const HASHED_BLOBS = [
  { slot: 2, name: "requirements" },
  { slot: 5, name: "entitlements" },
  { slot: 7, name: "DER entitlements" },
];
/** Mismatching pages named one by one; the rest are counted. */
const MAX_REPORTED_PAGES = 5;

interface FileRange {
  offset: number;
  size: number;
}

interface MachOFile {
  fileType: number;
  segments: Map<string, FileRange>;
  signature: FileRange | undefined;
}

interface CodeDirectory {
  bytes: Buffer;
  version: number;
  flags: number;
  identifier: string;
  hashOffset: number;
  specialSlots: number;
  codeSlots: number;
  codeLimit: number;
  hashSize: number;
  hashType: number;
  pageSize: number;
}

/** A structure too broken to check further; its message is the problem reported. */
class Unreadable extends Error {}

/**
 * Checks the embedded code signature of a thin 64-bit Mach-O file as the macOS kernel
 * would before running it: that the signature lies at the end of the file and of
 * `__LINKEDIT`, that its (SHA-256, when there are several) CodeDirectory covers the whole
 * file up to the signature, that every page hash and the hashes of the requirements and
 * entitlements blobs match, and that the executable-segment fields describe `__TEXT`.
 * It does not check certificates: a Developer ID signature whose hashes match is valid
 * (with `adhoc: false`). Never rejects for a broken file: a file that cannot be read or
 * parsed gives `valid: false` with the reason in `problems`.
 */
export async function verifyMachOSignature(path: string): Promise<MachOSignatureReport> {
  const report: MachOSignatureReport = { valid: false, problems: [], adhoc: false };
  try {
    checkSignature(await readFile(path), report);
  } catch (error) {
    const reason = error instanceof Unreadable ? error.message : `cannot check: ${(error as Error).message}`;
    report.problems.push(reason);
  }
  report.valid = report.problems.length === 0;
  return report;
}

function checkSignature(file: Buffer, report: MachOSignatureReport): void {
  const macho = parseMachO(file);
  const signature = macho.signature;
  if (!signature) {
    report.problems.push("the file has no code signature (no LC_CODE_SIGNATURE load command)");
    return;
  }
  const signatureEnd = signature.offset + signature.size;
  if (signatureEnd > file.length) {
    throw new Unreadable(
      `the code signature (bytes ${signature.offset}–${signatureEnd}) lies outside the file (${file.length} bytes)`,
    );
  }
  report.problems.push(...placementProblems(macho, signature, file.length));
  const blobs = parseSuperBlob(file.subarray(signature.offset, signatureEnd));
  const directory = chooseCodeDirectory(blobs);
  report.identifier = directory.identifier;
  report.adhoc = (directory.flags & CS_ADHOC) !== 0;
  report.hashType = HASH_TYPES[directory.hashType]?.name;
  report.pageSize = directory.pageSize;
  report.codeSlots = directory.codeSlots;
  report.codeLimit = directory.codeLimit;
  report.problems.push(
    ...coverageProblems(directory, signature.offset),
    ...pageProblems(directory, file),
    ...specialSlotProblems(directory, blobs),
    ...executableSegmentProblems(directory, macho),
  );
}

function parseMachO(file: Buffer): MachOFile {
  if (file.length < MACH_HEADER_64_SIZE) {
    throw new Unreadable(`the file is too short (${file.length} bytes) for a Mach-O header`);
  }
  if (FAT_MAGICS.has(file.readUInt32BE(HEADER.magic))) {
    throw new Unreadable("the file is a universal (fat) binary; verify each architecture's thin binary");
  }
  const magic = file.readUInt32LE(HEADER.magic);
  if (magic !== MH_MAGIC_64) {
    throw new Unreadable(`the file is not a thin 64-bit little-endian Mach-O file (magic 0x${hex(magic)})`);
  }
  const ncmds = file.readUInt32LE(HEADER.ncmds);
  const commandsEnd = MACH_HEADER_64_SIZE + file.readUInt32LE(HEADER.sizeofcmds);
  if (commandsEnd > file.length) throw new Unreadable("the load commands run past the end of the file");
  const macho: MachOFile = {
    fileType: file.readUInt32LE(HEADER.fileType),
    segments: new Map(),
    signature: undefined,
  };
  let offset = MACH_HEADER_64_SIZE;
  for (let index = 0; index < ncmds; index++) {
    const size =
      offset + LOAD_COMMAND_MIN_SIZE <= commandsEnd ? file.readUInt32LE(offset + LOAD_COMMAND.cmdsize) : 0;
    if (size < LOAD_COMMAND_MIN_SIZE || offset + size > commandsEnd) {
      throw new Unreadable(`load command ${index} of ${ncmds} is truncated or runs past sizeofcmds`);
    }
    recordLoadCommand(file, offset, size, macho);
    offset += size;
  }
  return macho;
}

/** Notes a segment or the code signature command at `offset` in `macho`; other commands are skipped. */
function recordLoadCommand(file: Buffer, offset: number, size: number, macho: MachOFile): void {
  const cmd = file.readUInt32LE(offset + LOAD_COMMAND.cmd);
  if (cmd === LC_SEGMENT_64 && size >= SEGMENT_COMMAND_64_MIN_SIZE) {
    const name = file
      .toString("latin1", offset + SEGMENT.name, offset + SEGMENT.nameEnd)
      .replace(/\0.*$/s, "");
    macho.segments.set(name, {
      offset: Number(file.readBigUInt64LE(offset + SEGMENT.fileoff)),
      size: Number(file.readBigUInt64LE(offset + SEGMENT.filesize)),
    });
  }
  if (cmd === LC_CODE_SIGNATURE && size >= LINKEDIT_DATA_COMMAND_SIZE) {
    macho.signature = {
      offset: file.readUInt32LE(offset + LINKEDIT_DATA.dataoff),
      size: file.readUInt32LE(offset + LINKEDIT_DATA.datasize),
    };
  }
}

function placementProblems(macho: MachOFile, signature: FileRange, fileSize: number): string[] {
  const problems: string[] = [];
  const signatureEnd = signature.offset + signature.size;
  const linkEdit = macho.segments.get(LINKEDIT_SEGMENT);
  if (!linkEdit) {
    problems.push(`the file has no ${LINKEDIT_SEGMENT} segment to hold the code signature`);
  } else if (signature.offset < linkEdit.offset || signatureEnd !== linkEdit.offset + linkEdit.size) {
    problems.push(
      `the code signature (bytes ${signature.offset}–${signatureEnd}) is not at the end of ` +
        `${LINKEDIT_SEGMENT} (bytes ${linkEdit.offset}–${linkEdit.offset + linkEdit.size})`,
    );
  }
  if (signatureEnd < fileSize) {
    problems.push(`${fileSize - signatureEnd} bytes after the code signature are in no signed range`);
  }
  return problems;
}

function parseSuperBlob(signature: Buffer): Map<number, Buffer> {
  if (
    signature.length < SUPERBLOB_HEADER_SIZE ||
    signature.readUInt32BE(SUPERBLOB.magic) !== CSMAGIC_EMBEDDED_SIGNATURE
  ) {
    throw new Unreadable(
      "the code signature does not start with an embedded-signature SuperBlob (0xfade0cc0)",
    );
  }
  const length = signature.readUInt32BE(SUPERBLOB.length);
  const count = signature.readUInt32BE(SUPERBLOB.count);
  if (length > signature.length || SUPERBLOB_HEADER_SIZE + count * BLOB_INDEX_ENTRY_SIZE > length) {
    throw new Unreadable(
      `the SuperBlob (${length} bytes, ${count} blobs) does not fit in the ${signature.length} bytes of the signature`,
    );
  }
  const blobs = new Map<number, Buffer>();
  for (let index = 0; index < count; index++) {
    const entry = SUPERBLOB_HEADER_SIZE + index * BLOB_INDEX_ENTRY_SIZE;
    const type = signature.readUInt32BE(entry + BLOB_INDEX.type);
    const offset = signature.readUInt32BE(entry + BLOB_INDEX.offset);
    const blobLength = offset + BLOB_HEADER_SIZE <= length ? signature.readUInt32BE(offset + BLOB.length) : 0;
    if (blobLength < BLOB_HEADER_SIZE || offset + blobLength > length) {
      throw new Unreadable(`the blob in slot 0x${hex(type)} runs past the end of the SuperBlob`);
    }
    blobs.set(type, signature.subarray(offset, offset + blobLength));
  }
  return blobs;
}

function chooseCodeDirectory(blobs: Map<number, Buffer>): CodeDirectory {
  const directories = [CSSLOT_CODEDIRECTORY, ...CSSLOT_ALTERNATE_CODEDIRECTORIES]
    .map((slot) => blobs.get(slot))
    .filter((blob): blob is Buffer => blob !== undefined)
    .map(parseCodeDirectory);
  const chosen = directories.find((directory) => directory.hashType === SHA256_HASH_TYPE) ?? directories[0];
  if (!chosen) throw new Unreadable("the code signature has no CodeDirectory");
  return chosen;
}

function parseCodeDirectory(bytes: Buffer): CodeDirectory {
  if (bytes.length < CD_BASE_SIZE || bytes.readUInt32BE(CD.magic) !== CSMAGIC_CODEDIRECTORY) {
    throw new Unreadable("a CodeDirectory slot does not hold a CodeDirectory (0xfade0c02)");
  }
  const version = bytes.readUInt32BE(CD.version);
  const identOffset = bytes.readUInt32BE(CD.identOffset);
  const identifierEnd = identOffset < bytes.length ? bytes.indexOf(0, identOffset) : -1;
  if (identifierEnd < 0) throw new Unreadable("the CodeDirectory's identifier runs past its end");
  const codeLimit64 =
    version >= CD_VERSION_CODE_LIMIT_64 && bytes.length >= CD_CODE_LIMIT_64_SIZE
      ? Number(bytes.readBigUInt64BE(CD.codeLimit64))
      : 0;
  const directory: CodeDirectory = {
    bytes,
    version,
    flags: bytes.readUInt32BE(CD.flags),
    identifier: bytes.toString("utf8", identOffset, identifierEnd),
    hashOffset: bytes.readUInt32BE(CD.hashOffset),
    specialSlots: bytes.readUInt32BE(CD.nSpecialSlots),
    codeSlots: bytes.readUInt32BE(CD.nCodeSlots),
    codeLimit: codeLimit64 || bytes.readUInt32BE(CD.codeLimit),
    hashSize: bytes.readUInt8(CD.hashSize),
    hashType: bytes.readUInt8(CD.hashType),
    pageSize: bytes.readUInt8(CD.pageSize) === 0 ? 0 : 2 ** bytes.readUInt8(CD.pageSize),
  };
  const hash = HASH_TYPES[directory.hashType];
  if (!hash) throw new Unreadable(`the CodeDirectory uses an unknown hash type (${directory.hashType})`);
  if (directory.hashSize !== hash.size) {
    throw new Unreadable(
      `the CodeDirectory's ${hash.name} hashes are ${directory.hashSize} bytes, not ${hash.size}`,
    );
  }
  const slotsStart = directory.hashOffset - directory.specialSlots * directory.hashSize;
  const slotsEnd = directory.hashOffset + directory.codeSlots * directory.hashSize;
  if (slotsStart < CD_BASE_SIZE || slotsEnd > bytes.length) {
    throw new Unreadable("the CodeDirectory's hash slots run past its bounds");
  }
  return directory;
}

function coverageProblems(directory: CodeDirectory, signatureOffset: number): string[] {
  const problems: string[] = [];
  if (directory.codeLimit !== signatureOffset) {
    problems.push(
      `the CodeDirectory covers the first ${directory.codeLimit} bytes, but the code runs to the ` +
        `signature at byte ${signatureOffset}`,
    );
  }
  const expectedSlots =
    directory.pageSize === 0
      ? Math.min(directory.codeLimit, 1)
      : Math.ceil(directory.codeLimit / directory.pageSize);
  if (directory.codeSlots !== expectedSlots) {
    problems.push(
      `the CodeDirectory has ${directory.codeSlots} code slots, but ${directory.codeLimit} bytes ` +
        `in pages of ${directory.pageSize} bytes need ${expectedSlots}`,
    );
  }
  return problems;
}

function pageProblems(directory: CodeDirectory, file: Buffer): string[] {
  const algorithm = HASH_TYPES[directory.hashType]!.algorithm;
  const pageSize = directory.pageSize || directory.codeLimit;
  const end = Math.min(directory.codeLimit, file.length);
  const mismatches: number[] = [];
  for (let page = 0; page < directory.codeSlots; page++) {
    const start = page * pageSize;
    const stored = slotHash(directory, page);
    const actual = createHash(algorithm)
      .update(file.subarray(Math.min(start, end), Math.min(start + pageSize, end)))
      .digest()
      .subarray(0, directory.hashSize);
    if (start >= end || !actual.equals(stored)) mismatches.push(page);
  }
  const problems = mismatches
    .slice(0, MAX_REPORTED_PAGES)
    .map(
      (page) =>
        `page ${page} of ${directory.codeSlots} (file offset 0x${hex(page * pageSize)}) does not match ` +
        "its hash in the CodeDirectory",
    );
  if (mismatches.length > MAX_REPORTED_PAGES) {
    problems.push(`${mismatches.length - MAX_REPORTED_PAGES} more pages do not match their hashes`);
  }
  return problems;
}

function specialSlotProblems(directory: CodeDirectory, blobs: Map<number, Buffer>): string[] {
  const algorithm = HASH_TYPES[directory.hashType]!.algorithm;
  const problems: string[] = [];
  for (const { slot, name } of HASHED_BLOBS) {
    const blob = blobs.get(slot);
    const stored = slot <= directory.specialSlots ? slotHash(directory, -slot) : undefined;
    if (blob && !stored) {
      problems.push(`the ${name} blob has no hash in the CodeDirectory (it has no special slot -${slot})`);
    } else if (blob && stored) {
      const actual = createHash(algorithm).update(blob).digest().subarray(0, directory.hashSize);
      if (!actual.equals(stored)) {
        problems.push(
          `the ${name} blob does not match its hash in special slot -${slot} of the CodeDirectory`,
        );
      }
    } else if (stored?.some((byte) => byte !== 0)) {
      problems.push(
        `special slot -${slot} holds the hash of a ${name} blob that the signature does not have`,
      );
    }
  }
  return problems;
}

function executableSegmentProblems(directory: CodeDirectory, macho: MachOFile): string[] {
  if (directory.version < CD_VERSION_EXEC_SEGMENT) return [];
  if (directory.bytes.length < CD_EXEC_SEGMENT_SIZE) {
    return [`the CodeDirectory claims version 0x${hex(directory.version)} but is too short for its fields`];
  }
  const text = macho.segments.get(TEXT_SEGMENT);
  if (!text) return [`the file has no ${TEXT_SEGMENT} segment for the CodeDirectory's executable segment`];
  const base = Number(directory.bytes.readBigUInt64BE(CD.execSegBase));
  const limit = Number(directory.bytes.readBigUInt64BE(CD.execSegLimit));
  const flags = Number(directory.bytes.readBigUInt64BE(CD.execSegFlags));
  const problems: string[] = [];
  if (base !== text.offset || limit !== text.size) {
    problems.push(
      `the CodeDirectory's executable segment (offset ${base}, size ${limit}) is not ` +
        `${TEXT_SEGMENT} (offset ${text.offset}, size ${text.size})`,
    );
  }
  if (macho.fileType === MH_EXECUTE && (flags & CS_EXECSEG_MAIN_BINARY) === 0) {
    problems.push("the CodeDirectory does not mark the executable's __TEXT as the main binary's");
  }
  return problems;
}

/** The hash in slot `slot` of the CodeDirectory: code slots from 0, special slots negative. */
function slotHash(directory: CodeDirectory, slot: number): Buffer {
  const start = directory.hashOffset + slot * directory.hashSize;
  return directory.bytes.subarray(start, start + directory.hashSize);
}

function hex(value: number): string {
  return value.toString(16);
}
