import { createHash } from "node:crypto";

/** Where the signed code's executable segment is, for the CodeDirectory's execSeg fields. */
export interface ExecutableSegment {
  /** File offset of `__TEXT`. */
  base: number;
  /** File size of `__TEXT`. */
  limit: number;
  /** True for a main executable (`MH_EXECUTE`): sets `CS_EXECSEG_MAIN_BINARY`. */
  mainBinary: boolean;
}

const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSMAGIC_REQUIREMENTS = 0xfade0c01;
const CSMAGIC_BLOBWRAPPER = 0xfade0b01;
const CSSLOT_CODEDIRECTORY = 0;
const CSSLOT_REQUIREMENTS = 2;
const CSSLOT_SIGNATURESLOT = 0x10000;
/** The first version with execSeg fields (`CS_SUPPORTSEXECSEG`), as codesign writes today. */
const CODEDIRECTORY_VERSION = 0x20400;
const CS_ADHOC = 0x2;
const CS_EXECSEG_MAIN_BINARY = 0x1;
const CS_HASHTYPE_SHA256 = 2;
const SHA256_SIZE = 32;
const PAGE_SIZE_LOG2 = 12;
const PAGE_SIZE = 1 << PAGE_SIZE_LOG2;
/** Special slots -1 (Info.plist, none: zeros) and -2 (requirements). */
const SPECIAL_SLOT_COUNT = 2;
const REQUIREMENTS_SPECIAL_SLOT = 2;

/** Field offsets of every blob's header, of the SuperBlob's header, and of each of its index entries. */
const BLOB = { magic: 0, length: 4 } as const;
const SUPERBLOB = { ...BLOB, count: 8 } as const;
const BLOB_INDEX = { type: 0, offset: 4 } as const;
const SUPERBLOB_HEADER_SIZE = 12;
const BLOB_INDEX_ENTRY_SIZE = 8;
/** A generic blob's header: magic and length. */
const BLOB_HEADER_SIZE = 8;
/** A Requirements blob's header and its count of requirements. */
const REQUIREMENTS_HEADER_SIZE = 12;
const BLOB_COUNT = 3;
/** Size of a version 0x20400 CodeDirectory header; the identifier follows it. */
const CODEDIRECTORY_HEADER_SIZE = 88;
/** Field offsets of the CodeDirectory (`CS_CodeDirectory`, all big-endian). */
const CD = {
  magic: 0,
  length: 4,
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

/** An empty Requirements blob (magic, length 12, count 0), as codesign writes for ad-hoc signatures. */
const EMPTY_REQUIREMENTS = blobHeader(CSMAGIC_REQUIREMENTS, REQUIREMENTS_HEADER_SIZE);
/** An empty CMS signature wrapper: ad-hoc signatures have no certificate chain. */
const EMPTY_CMS_WRAPPER = blobHeader(CSMAGIC_BLOBWRAPPER, BLOB_HEADER_SIZE);

/** Bytes of the ad-hoc signature {@link buildAdHocSignature} makes for this identifier and code limit. */
export function adHocSignatureSize(identifier: string, codeLimit: number): number {
  return (
    SUPERBLOB_HEADER_SIZE +
    BLOB_COUNT * BLOB_INDEX_ENTRY_SIZE +
    codeDirectorySize(identifier, codeLimit) +
    EMPTY_REQUIREMENTS.length +
    EMPTY_CMS_WRAPPER.length
  );
}

/**
 * Builds the embedded signature `codesign --sign -` makes: a SuperBlob holding a SHA-256
 * CodeDirectory (version 0x20400, flags `CS_ADHOC`, 4 KiB pages) over all of `code`, an
 * empty Requirements blob and an empty CMS wrapper. `code` is the file up to where the
 * signature will go (less than 4 GiB), with its load commands already pointing at the
 * signature; `identifier` is non-empty and has no NUL.
 */
export function buildAdHocSignature(
  code: Buffer,
  identifier: string,
  execSegment: ExecutableSegment,
): Buffer {
  const codeDirectory = buildCodeDirectory(code, identifier, execSegment);
  const blobs: [number, Buffer][] = [
    [CSSLOT_CODEDIRECTORY, codeDirectory],
    [CSSLOT_REQUIREMENTS, EMPTY_REQUIREMENTS],
    [CSSLOT_SIGNATURESLOT, EMPTY_CMS_WRAPPER],
  ];
  const indexSize = SUPERBLOB_HEADER_SIZE + blobs.length * BLOB_INDEX_ENTRY_SIZE;
  const superBlob = Buffer.concat([Buffer.alloc(indexSize), ...blobs.map(([, blob]) => blob)]);
  superBlob.writeUInt32BE(CSMAGIC_EMBEDDED_SIGNATURE, SUPERBLOB.magic);
  superBlob.writeUInt32BE(superBlob.length, SUPERBLOB.length);
  superBlob.writeUInt32BE(blobs.length, SUPERBLOB.count);
  let blobOffset = indexSize;
  blobs.forEach(([slot, blob], index) => {
    const entry = SUPERBLOB_HEADER_SIZE + index * BLOB_INDEX_ENTRY_SIZE;
    superBlob.writeUInt32BE(slot, entry + BLOB_INDEX.type);
    superBlob.writeUInt32BE(blobOffset, entry + BLOB_INDEX.offset);
    blobOffset += blob.length;
  });
  return superBlob;
}

function buildCodeDirectory(code: Buffer, identifier: string, execSegment: ExecutableSegment): Buffer {
  const codeSlots = codeSlotCount(code.length);
  const identifierBytes = identifierField(identifier);
  const hashOffset = CODEDIRECTORY_HEADER_SIZE + identifierBytes.length + SPECIAL_SLOT_COUNT * SHA256_SIZE;
  const directory = Buffer.alloc(codeDirectorySize(identifier, code.length));
  directory.writeUInt32BE(CSMAGIC_CODEDIRECTORY, CD.magic);
  directory.writeUInt32BE(directory.length, CD.length);
  directory.writeUInt32BE(CODEDIRECTORY_VERSION, CD.version);
  directory.writeUInt32BE(CS_ADHOC, CD.flags);
  directory.writeUInt32BE(hashOffset, CD.hashOffset);
  directory.writeUInt32BE(CODEDIRECTORY_HEADER_SIZE, CD.identOffset);
  directory.writeUInt32BE(SPECIAL_SLOT_COUNT, CD.nSpecialSlots);
  directory.writeUInt32BE(codeSlots, CD.nCodeSlots);
  directory.writeUInt32BE(code.length, CD.codeLimit);
  directory.writeUInt8(SHA256_SIZE, CD.hashSize);
  directory.writeUInt8(CS_HASHTYPE_SHA256, CD.hashType);
  directory.writeUInt8(PAGE_SIZE_LOG2, CD.pageSize);
  directory.writeBigUInt64BE(BigInt(execSegment.base), CD.execSegBase);
  directory.writeBigUInt64BE(BigInt(execSegment.limit), CD.execSegLimit);
  directory.writeBigUInt64BE(BigInt(execSegment.mainBinary ? CS_EXECSEG_MAIN_BINARY : 0), CD.execSegFlags);
  identifierBytes.copy(directory, CODEDIRECTORY_HEADER_SIZE);
  // Special slot -n sits n hashes before hashOffset; slot -1 (no Info.plist) stays zeros.
  sha256(EMPTY_REQUIREMENTS).copy(directory, hashOffset - REQUIREMENTS_SPECIAL_SLOT * SHA256_SIZE);
  for (let page = 0; page < codeSlots; page++) {
    const start = page * PAGE_SIZE;
    sha256(code.subarray(start, Math.min(start + PAGE_SIZE, code.length))).copy(
      directory,
      hashOffset + page * SHA256_SIZE,
    );
  }
  return directory;
}

function codeDirectorySize(identifier: string, codeLimit: number): number {
  const slots = SPECIAL_SLOT_COUNT + codeSlotCount(codeLimit);
  return CODEDIRECTORY_HEADER_SIZE + identifierField(identifier).length + slots * SHA256_SIZE;
}

function codeSlotCount(codeLimit: number): number {
  return Math.ceil(codeLimit / PAGE_SIZE);
}

/** The identifier as the CodeDirectory stores it: UTF-8, NUL-terminated. */
function identifierField(identifier: string): Buffer {
  return Buffer.from(`${identifier}\0`, "utf8");
}

function blobHeader(magic: number, length: number): Buffer {
  const blob = Buffer.alloc(length);
  blob.writeUInt32BE(magic, BLOB.magic);
  blob.writeUInt32BE(length, BLOB.length);
  return blob;
}

function sha256(bytes: Buffer): Buffer {
  return createHash("sha256").update(bytes).digest();
}
