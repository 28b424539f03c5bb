import { readFile } from "node:fs/promises";
import { adHocSignatureSize, buildAdHocSignature } from "./adhoc-signature-blob.js";
import {
  appendCodeSignatureCommand,
  removeLoadCommand,
  resizeSegment,
  writeCodeSignatureCommand,
} from "./edit-load-commands.js";
import {
  type CodeSignatureCommand,
  LINKEDIT_DATA_COMMAND_SIZE,
  loadCommandRoom,
  type MachOLayout,
  MH_EXECUTE,
  readMachOLayout,
  type Segment,
  segmentNamed,
} from "./mach-o-layout.js";
import { replaceFile } from "./replace-file.js";

/** Options of {@link signMachOAdHoc}. */
export interface AdHocSignOptions {
  /** The signature's identifier (codesign takes the file name by default), e.g. the plugin's name. */
  identifier: string;
}

const LINKEDIT_SEGMENT = "__LINKEDIT";
const TEXT_SEGMENT = "__TEXT";
/** codesign starts the signature at a 16-byte boundary and pads its size to one. */
const SIGNATURE_ALIGNMENT = 16;
/** Segment sizes in memory are whole pages; 16 KiB pages (arm64) are whole 4 KiB pages (x86_64) too. */
const SEGMENT_PAGE_SIZE = 0x4000;
/** `dataoff` and `datasize` are 32-bit fields. */
const MAX_SIGNED_FILE_SIZE = 0xffffffff;

/**
 * Removes the code signature of a thin 64-bit Mach-O file in place, as `codesign
 * --remove-signature` does: truncates the file where the signature starts, removes the
 * `LC_CODE_SIGNATURE` load command and shrinks `__LINKEDIT`. Resolves to `false` when
 * the file has no signature (and leaves it untouched). Throws an `Error` naming the file
 * when it is no thin 64-bit Mach-O file, or its signature is not the last thing in the
 * file and in `__LINKEDIT`.
 */
export async function removeMachOSignature(path: string): Promise<boolean> {
  const original = await readFile(path);
  const layout = readMachOLayout(original, path);
  const signature = layout.codeSignature;
  if (!signature) return false;
  const linkEdit = segmentNamed(layout, LINKEDIT_SEGMENT, path);
  assertSignatureEndsFile(original, linkEdit, signature, path, "remove");
  const unsigned = original.subarray(0, signature.dataoff);
  removeLoadCommand(unsigned, layout, signature);
  const filesize = signature.dataoff - linkEdit.fileoff;
  // Never larger in memory than before: a segment mapped after it may start right there.
  resizeSegment(
    unsigned,
    linkEdit,
    filesize,
    Math.min(linkEdit.vmsize, alignUp(filesize, SEGMENT_PAGE_SIZE)),
  );
  await replaceFile(path, unsigned);
  return true;
}

/**
 * Signs a thin 64-bit Mach-O file ad hoc in place, as `codesign --sign - --force` does:
 * replaces its signature, or adds an `LC_CODE_SIGNATURE` when it has none, with a
 * SHA-256 CodeDirectory over the whole file up to the signature, which goes at the end
 * of the file and of `__LINKEDIT`. Signing a signed file again gives a file of the same
 * size. The file is rewritten whole (via a temporary file), never left half-signed.
 *
 * Throws an `Error` naming the file for a universal (fat) or 32-bit file, a file whose
 * `__LINKEDIT` or existing signature is not at its end, or one without room for the new
 * load command before its first section.
 */
export async function signMachOAdHoc(path: string, options: AdHocSignOptions): Promise<void> {
  if (options.identifier === "" || options.identifier.includes("\0")) {
    throw new Error(
      `cannot sign ${path}: the identifier ${JSON.stringify(options.identifier)} must be non-empty and have no NUL`,
    );
  }
  const original = await readFile(path);
  const layout = readMachOLayout(original, path);
  const linkEdit = segmentNamed(layout, LINKEDIT_SEGMENT, path);
  const text = segmentNamed(layout, TEXT_SEGMENT, path);
  const codeEnd = codeEndOf(original, layout, linkEdit, path);
  const dataoff = alignUp(codeEnd, SIGNATURE_ALIGNMENT);
  const datasize = alignUp(adHocSignatureSize(options.identifier, dataoff), SIGNATURE_ALIGNMENT);
  if (dataoff + datasize > MAX_SIGNED_FILE_SIZE) {
    throw new Error(`cannot sign ${path}: signed, it would pass the 4 GiB a Mach-O signature can cover`);
  }
  const signed = Buffer.alloc(dataoff + datasize);
  original.copy(signed, 0, 0, codeEnd);
  if (layout.codeSignature) {
    writeCodeSignatureCommand(signed, layout.codeSignature.offset, dataoff, datasize);
  } else {
    appendCodeSignatureCommand(signed, layout, dataoff, datasize);
  }
  const filesize = signed.length - linkEdit.fileoff;
  const vmsize = alignUp(filesize, SEGMENT_PAGE_SIZE);
  assertNoOverlapInMemory(layout, linkEdit, vmsize, path);
  resizeSegment(signed, linkEdit, filesize, vmsize);
  const signature = buildAdHocSignature(signed.subarray(0, dataoff), options.identifier, {
    base: text.fileoff,
    limit: text.filesize,
    mainBinary: layout.fileType === MH_EXECUTE,
  });
  signature.copy(signed, dataoff);
  await replaceFile(path, signed);
}

/**
 * Where the file's code ends: at its signature, or at its end when unsigned. Checks that
 * a new signature can go there: at the end of the file and of `__LINKEDIT`.
 */
function codeEndOf(bytes: Buffer, layout: MachOLayout, linkEdit: Segment, path: string): number {
  if (layout.codeSignature) {
    assertSignatureEndsFile(bytes, linkEdit, layout.codeSignature, path, "replace");
    return layout.codeSignature.dataoff;
  }
  const linkEditEnd = linkEdit.fileoff + linkEdit.filesize;
  if (linkEditEnd !== bytes.length) {
    throw new Error(
      `cannot sign ${path}: ${LINKEDIT_SEGMENT} ends at byte ${linkEditEnd}, not at the end of the ` +
        `file (${bytes.length} bytes), so the signature cannot go at the end of both`,
    );
  }
  const room = loadCommandRoom(layout);
  if (room < LINKEDIT_DATA_COMMAND_SIZE) {
    throw new Error(
      `cannot sign ${path}: no room for an LC_CODE_SIGNATURE load command (${LINKEDIT_DATA_COMMAND_SIZE} ` +
        `bytes) between the load commands and the first section (${Math.max(room, 0)} bytes free)`,
    );
  }
  return bytes.length;
}

function assertSignatureEndsFile(
  bytes: Buffer,
  linkEdit: Segment,
  signature: CodeSignatureCommand,
  path: string,
  action: "remove" | "replace",
): void {
  const signatureEnd = signature.dataoff + signature.datasize;
  const linkEditEnd = linkEdit.fileoff + linkEdit.filesize;
  if (signature.dataoff < linkEdit.fileoff || signatureEnd !== bytes.length || linkEditEnd !== bytes.length) {
    throw new Error(
      `cannot ${action} the code signature of ${path}: it (bytes ${signature.dataoff}–${signatureEnd}) is ` +
        `not the last thing in the file (${bytes.length} bytes) and in ${LINKEDIT_SEGMENT} ` +
        `(bytes ${linkEdit.fileoff}–${linkEditEnd})`,
    );
  }
}

function assertNoOverlapInMemory(layout: MachOLayout, linkEdit: Segment, vmsize: number, path: string): void {
  const end = linkEdit.vmaddr + vmsize;
  const overlapped = layout.segments.find(
    (segment) =>
      segment !== linkEdit &&
      segment.vmsize > 0 &&
      segment.vmaddr < end &&
      linkEdit.vmaddr < segment.vmaddr + segment.vmsize,
  );
  if (overlapped) {
    throw new Error(
      `cannot sign ${path}: ${LINKEDIT_SEGMENT} grown to 0x${vmsize.toString(16)} bytes in memory would ` +
        `overlap the ${overlapped.name} segment`,
    );
  }
}

function alignUp(value: number, alignment: number): number {
  return Math.ceil(value / alignment) * alignment;
}
