import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeSync,
} from "node:fs";

/** The first 8 bytes of every rollback-journal header (sqlite.org/fileformat.html). */
const MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);
/** Magic, record count, checksum nonce, initial page count, sector size, page size. */
const HEADER_FIELDS_BYTES = 28;
/** A header's record count that means "up to the end of the file". */
const TO_END = 0xffffffff;

/**
 * Rolls back the journal a process left when it died inside a write transaction, so
 * that no reader sees the pages it had already written to `path`.
 *
 * SQLite does this itself on other platforms, but the WebAssembly build's file lock (a
 * `<file>.lock` folder) reports the lock it holds as another's, so SQLite never takes a
 * journal for hot and reads the half-written file as it is. This runs under that same
 * lock; when another process holds it, its journal belongs to a live transaction and is
 * left alone.
 */
export function rollBackHotJournal(path: string): void {
  const journal = `${path}-journal`;
  if (!existsSync(journal)) return;
  const lock = `${path}.lock`;
  try {
    mkdirSync(lock);
  } catch {
    return;
  }
  try {
    if (!existsSync(journal)) return;
    playBack(readFileSync(journal), path);
    rmSync(journal, { force: true });
  } finally {
    rmdirSync(lock);
  }
}

/**
 * Writes the journal's original pages back over the database and truncates it to its size
 * before the transaction: segment by segment, each after a header at a sector boundary,
 * up to the first record whose checksum fails (a record the dead process never synced).
 */
function playBack(journal: Buffer, path: string): void {
  const first = readHeader(journal, 0);
  if (!first || !validSizes(first)) return;
  const { sectorSize, pageSize } = first;
  const db = openSync(path, "r+");
  try {
    ftruncateSync(db, first.initialPages * pageSize);
    let header: Header | undefined = first;
    let offset = 0;
    while (header) {
      const end = playSegment(journal, offset + sectorSize, header, pageSize, first.initialPages, db);
      if (end === undefined) break;
      offset = Math.ceil(end / sectorSize) * sectorSize;
      header = readHeader(journal, offset);
    }
    fsyncSync(db);
  } finally {
    closeSync(db);
  }
}

interface Header {
  records: number;
  nonce: number;
  initialPages: number;
  sectorSize: number;
  pageSize: number;
}

function readHeader(journal: Buffer, offset: number): Header | undefined {
  if (offset + HEADER_FIELDS_BYTES > journal.length) return undefined;
  if (!journal.subarray(offset, offset + MAGIC.length).equals(MAGIC)) return undefined;
  return {
    records: journal.readUInt32BE(offset + 8),
    nonce: journal.readUInt32BE(offset + 12),
    initialPages: journal.readUInt32BE(offset + 16),
    sectorSize: journal.readUInt32BE(offset + 20),
    pageSize: journal.readUInt32BE(offset + 24),
  };
}

function validSizes({ sectorSize, pageSize }: Header): boolean {
  const powerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;
  return (
    powerOfTwo(sectorSize) && sectorSize >= 32 && powerOfTwo(pageSize) && pageSize >= 512 && pageSize <= 65536
  );
}

/**
 * Plays one segment's records from `at`; returns where they end, or undefined when a
 * record is torn or fails its checksum (nothing valid follows it).
 */
function playSegment(
  journal: Buffer,
  at: number,
  header: Header,
  pageSize: number,
  initialPages: number,
  db: number,
): number | undefined {
  const recordBytes = pageSize + 8;
  const records =
    header.records === TO_END ? Math.floor((journal.length - at) / recordBytes) : header.records;
  for (let index = 0; index < records; index++, at += recordBytes) {
    if (at + recordBytes > journal.length) return undefined;
    const pageNumber = journal.readUInt32BE(at);
    const page = journal.subarray(at + 4, at + 4 + pageSize);
    if (pageNumber === 0 || checksum(page, header.nonce) !== journal.readUInt32BE(at + 4 + pageSize))
      return undefined;
    if (pageNumber <= initialPages) writeSync(db, page, 0, pageSize, (pageNumber - 1) * pageSize);
  }
  return at;
}

/** SQLite's record checksum: the nonce plus every 200th byte, counted from the page's end. */
function checksum(page: Buffer, nonce: number): number {
  let sum = nonce;
  for (let index = page.length - 200; index > 0; index -= 200) sum = (sum + (page[index] ?? 0)) >>> 0;
  return sum;
}
