import {
  HEADER,
  LC_CODE_SIGNATURE,
  LINKEDIT_DATA,
  LINKEDIT_DATA_COMMAND_SIZE,
  type LoadCommand,
  MACH_HEADER_64_SIZE,
  type MachOLayout,
  SEGMENT,
  type Segment,
} from "./mach-o-layout.js";

/**
 * Removes a load command from `bytes` in place: the commands after it move up, the bytes
 * it leaves at the end become zeros, and `ncmds` and `sizeofcmds` shrink. `layout` must
 * describe `bytes` as they are before the call.
 */
export function removeLoadCommand(bytes: Buffer, layout: MachOLayout, command: LoadCommand): void {
  const commandsEnd = MACH_HEADER_64_SIZE + layout.sizeOfCommands;
  bytes.copyWithin(command.offset, command.offset + command.size, commandsEnd);
  bytes.fill(0, commandsEnd - command.size, commandsEnd);
  bytes.writeUInt32LE(layout.commands.length - 1, HEADER.ncmds);
  bytes.writeUInt32LE(layout.sizeOfCommands - command.size, HEADER.sizeofcmds);
}

/**
 * Writes a new `LC_CODE_SIGNATURE` after the last load command and counts it in
 * `ncmds` and `sizeofcmds`; returns its file offset. The caller has checked that there is
 * room ({@link loadCommandRoom}).
 */
export function appendCodeSignatureCommand(
  bytes: Buffer,
  layout: MachOLayout,
  dataoff: number,
  datasize: number,
): number {
  const offset = MACH_HEADER_64_SIZE + layout.sizeOfCommands;
  bytes.writeUInt32LE(LC_CODE_SIGNATURE, offset);
  bytes.writeUInt32LE(LINKEDIT_DATA_COMMAND_SIZE, offset + 4);
  writeCodeSignatureCommand(bytes, offset, dataoff, datasize);
  bytes.writeUInt32LE(layout.commands.length + 1, HEADER.ncmds);
  bytes.writeUInt32LE(layout.sizeOfCommands + LINKEDIT_DATA_COMMAND_SIZE, HEADER.sizeofcmds);
  return offset;
}

/** Points the `LC_CODE_SIGNATURE` at `commandOffset` to `datasize` bytes at `dataoff`. */
export function writeCodeSignatureCommand(
  bytes: Buffer,
  commandOffset: number,
  dataoff: number,
  datasize: number,
): void {
  bytes.writeUInt32LE(dataoff, commandOffset + LINKEDIT_DATA.dataoff);
  bytes.writeUInt32LE(datasize, commandOffset + LINKEDIT_DATA.datasize);
}

/** Sets a segment's `filesize` and `vmsize`. */
export function resizeSegment(bytes: Buffer, segment: Segment, filesize: number, vmsize: number): void {
  bytes.writeBigUInt64LE(BigInt(filesize), segment.commandOffset + SEGMENT.filesize);
  bytes.writeBigUInt64LE(BigInt(vmsize), segment.commandOffset + SEGMENT.vmsize);
}
