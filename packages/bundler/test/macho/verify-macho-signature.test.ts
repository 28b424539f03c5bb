import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signMachOAdHoc } from "../../src/macho/adhoc-sign.js";
import { verifyMachOSignature } from "../../src/verify/macho-signature.js";
import { tempDir } from "../helpers/temp-dir.js";
import { BLOB_INDEX, CD, flipBits, signatureParts } from "./signature-parts.js";
import { LINKEDIT_OFFSET, writeSyntheticMachO } from "./synthetic-macho.js";

const PAGE = 4096;
const CS_ADHOC = 0x2;
const SHA256_SIZE = 32;
const LINKEDIT_DATA = { dataoff: 8, datasize: 12 } as const;

describe("verifyMachOSignature", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let count = 0;
  /** A freshly signed synthetic executable, its bytes, and a way to write changed bytes back. */
  const signed = async () => {
    const path = await writeSyntheticMachO(dir.path, `signed-${++count}`);
    await signMachOAdHoc(path, { identifier: "checked" });
    const file = await readFile(path);
    return { path, file, parts: signatureParts(file), save: () => writeFile(path, file) };
  };
  beforeAll(async () => {
    dir = await tempDir("macho-verify");
  });
  afterAll(() => dir.remove());

  it("names the page whose bytes changed after signing", async () => {
    const { path, file, parts, save } = await signed();
    flipBits(file, 2 * PAGE + 100, 0x01);
    await save();
    const report = await verifyMachOSignature(path);
    const pages = Math.ceil(parts.dataoff / PAGE);
    expect(report.valid).toBe(false);
    expect(report.problems).toEqual([
      `page 2 of ${pages} (file offset 0x2000) does not match its hash in the CodeDirectory`,
    ]);
  });

  it("catches a change in the last, partial page", async () => {
    const { path, file, parts, save } = await signed();
    flipBits(file, parts.dataoff - 1, 0x80);
    await save();
    const report = await verifyMachOSignature(path);
    const last = Math.ceil(parts.dataoff / PAGE) - 1;
    expect(report.problems).toEqual([expect.stringMatching(new RegExp(`^page ${last} of ${last + 1} `))]);
  });

  it("catches a hash changed inside the CodeDirectory", async () => {
    const { path, file, parts, save } = await signed();
    flipBits(file, parts.codeSlotsOffset + 3 * SHA256_SIZE + 7, 0xff);
    await save();
    const report = await verifyMachOSignature(path);
    expect(report.valid).toBe(false);
    expect(report.problems).toEqual([expect.stringMatching(/^page 3 of \d+ .* does not match/)]);
  });

  it("catches a requirements blob that does not match its special slot", async () => {
    const { path, file, parts, save } = await signed();
    flipBits(file, parts.requirementsSlotOffset, 0xff);
    await save();
    expect((await verifyMachOSignature(path)).problems).toEqual([
      "the requirements blob does not match its hash in special slot -2 of the CodeDirectory",
    ]);
  });

  it("counts a signature without CS_ADHOC whose hashes match as valid but not ad hoc", async () => {
    const { path, file, parts, save } = await signed();
    file.writeUInt32BE(file.readUInt32BE(parts.flagsOffset) & ~CS_ADHOC, parts.flagsOffset);
    await save();
    expect(await verifyMachOSignature(path)).toMatchObject({
      valid: true,
      adhoc: false,
      identifier: "checked",
    });
  });

  it("reports a truncated file, never throwing", async () => {
    const { path, file, parts } = await signed();
    await writeFile(path, file.subarray(0, parts.dataoff + 40));
    const report = await verifyMachOSignature(path);
    expect(report.valid).toBe(false);
    expect(report.problems).toEqual([
      expect.stringMatching(/code signature \(bytes \d+–\d+\) lies outside the file/),
    ]);

    await writeFile(path, file.subarray(0, 100));
    expect((await verifyMachOSignature(path)).problems).toEqual([
      expect.stringMatching(/load commands run past the end of the file/),
    ]);
    await writeFile(path, file.subarray(0, 3));
    expect((await verifyMachOSignature(path)).problems).toEqual([expect.stringMatching(/too short/)]);
  });

  it("reports a signature that points outside the file", async () => {
    const { path, file, parts, save } = await signed();
    file.writeUInt32LE(file.length + PAGE, parts.command + LINKEDIT_DATA.dataoff);
    await save();
    const report = await verifyMachOSignature(path);
    expect(report).toMatchObject({ valid: false, adhoc: false });
    expect(report.problems).toEqual([expect.stringMatching(/lies outside the file/)]);
  });

  it("reports a signature that is not at the end of __LINKEDIT", async () => {
    const { path, file, parts, save } = await signed();
    file.writeUInt32LE(parts.datasize - 16, parts.command + LINKEDIT_DATA.datasize);
    await save();
    const problems = (await verifyMachOSignature(path)).problems;
    expect(problems).toContain(
      `the code signature (bytes ${parts.dataoff}–${file.length - 16}) is not at the end of __LINKEDIT ` +
        `(bytes ${LINKEDIT_OFFSET}–${file.length})`,
    );
    expect(problems).toContain("16 bytes after the code signature are in no signed range");
  });

  it("reports garbage where the SuperBlob should be", async () => {
    const { path, file, parts, save } = await signed();
    file.fill(0x5a, parts.dataoff, parts.dataoff + 64);
    await save();
    expect((await verifyMachOSignature(path)).problems).toEqual([
      expect.stringMatching(/does not start with an embedded-signature SuperBlob/),
    ]);
  });

  it("reports blob offsets and hash slots that run out of bounds", async () => {
    const { path, file, parts, save } = await signed();
    file.writeUInt32BE(0xffff_fff0, parts.blobIndexOffset + BLOB_INDEX.offset);
    await save();
    expect((await verifyMachOSignature(path)).problems).toEqual([
      expect.stringMatching(/blob in slot 0x0 runs past the end of the SuperBlob/),
    ]);

    const other = await signed();
    other.file.writeUInt32BE(0x7fff_ffff, other.parts.codeDirectory + CD.nCodeSlots);
    await other.save();
    expect((await verifyMachOSignature(other.path)).problems).toEqual([
      expect.stringMatching(/hash slots run past/),
    ]);
  });

  it("reports a file without a signature, a universal file and a missing file", async () => {
    const unsigned = await writeSyntheticMachO(dir.path, "unsigned");
    expect(await verifyMachOSignature(unsigned)).toEqual({
      valid: false,
      adhoc: false,
      problems: ["the file has no code signature (no LC_CODE_SIGNATURE load command)"],
    });
    const fat = join(dir.path, "fat");
    const header = Buffer.alloc(PAGE);
    header.writeUInt32BE(0xcafebabe, 0);
    await writeFile(fat, header);
    expect((await verifyMachOSignature(fat)).problems).toEqual([expect.stringMatching(/universal \(fat\)/)]);
    const missing = await verifyMachOSignature(join(dir.path, "absent"));
    expect(missing.valid).toBe(false);
    expect(missing.problems).toEqual([expect.stringMatching(/ENOENT/)]);
  });
});
