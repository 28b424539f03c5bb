import { appendFile, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeMachOSignature, signMachOAdHoc } from "../../src/macho/adhoc-sign.js";
import { verifyMachOSignature } from "../../src/verify/macho-signature.js";
import { tempDir } from "../helpers/temp-dir.js";
import { flipBits, loadCommandCount, signatureParts } from "./signature-parts.js";
import {
  COMMANDS_END,
  LINKEDIT_OFFSET,
  linkEditSizes,
  syntheticMachO,
  TEXT_SIZE,
  writeSyntheticMachO,
} from "./synthetic-macho.js";

const SEGMENT_PAGE = 0x4000;
const PAGE = 4096;

describe("signMachOAdHoc", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir("macho-sign");
  });
  afterAll(() => dir.remove());

  it("signs an unsigned executable so that the verifier finds a valid ad-hoc signature", async () => {
    const path = await writeSyntheticMachO(dir.path, "unsigned");
    const unsignedSize = (await stat(path)).size;
    await signMachOAdHoc(path, { identifier: "weather-plugin" });

    const report = await verifyMachOSignature(path);
    expect(report).toMatchObject({
      valid: true,
      problems: [],
      adhoc: true,
      identifier: "weather-plugin",
      hashType: "sha256",
      pageSize: PAGE,
    });
    const file = await readFile(path);
    const parts = signatureParts(file);
    expect(loadCommandCount(file)).toBe(4);
    expect(parts.dataoff).toBe(Math.ceil(unsignedSize / 16) * 16);
    expect(parts.dataoff + parts.datasize).toBe(file.length);
    expect(parts.datasize % 16).toBe(0);
    const linkEdit = linkEditSizes(file);
    expect(LINKEDIT_OFFSET + linkEdit.filesize).toBe(file.length);
    expect(linkEdit.vmsize % SEGMENT_PAGE).toBe(0);
    expect(linkEdit.vmsize).toBeGreaterThanOrEqual(linkEdit.filesize);
    expect(report.codeLimit).toBe(parts.dataoff);
    expect(report.codeSlots).toBe(Math.ceil(parts.dataoff / PAGE));
    expect((await stat(path)).mode & 0o777).toBe(0o755);
  });

  it("writes the blobs and CodeDirectory fields codesign's ad-hoc signature has", async () => {
    const path = await writeSyntheticMachO(dir.path, "layout");
    await signMachOAdHoc(path, { identifier: "layout" });
    const parts = signatureParts(await readFile(path));
    expect(parts.blobs).toEqual([
      { slot: 0, magic: 0xfade0c02, length: expect.any(Number) },
      { slot: 2, magic: 0xfade0c01, length: 12 },
      { slot: 0x10000, magic: 0xfade0b01, length: 8 },
    ]);
    expect(parts.identifier).toBe("layout");
    expect(parts.fields).toMatchObject({
      version: 0x20400,
      flags: 0x2,
      nSpecialSlots: 2,
      hashSize: 32,
      hashType: 2,
      pageSize: 12,
      codeLimit: parts.dataoff,
      execSegBase: 0n,
      execSegLimit: BigInt(TEXT_SIZE),
      execSegFlags: 1n,
    });
  });

  it("re-signs a signed file in place, valid every time, without growing it", async () => {
    const path = await writeSyntheticMachO(dir.path, "resigned");
    await signMachOAdHoc(path, { identifier: "again" });
    const first = await readFile(path);
    for (let round = 0; round < 3; round++) await signMachOAdHoc(path, { identifier: "again" });
    const last = await readFile(path);
    expect(last.length).toBe(first.length);
    expect(last.equals(first)).toBe(true);
    expect(loadCommandCount(last)).toBe(4);
    expect(await verifyMachOSignature(path)).toMatchObject({ valid: true, identifier: "again" });

    await signMachOAdHoc(path, { identifier: "another-identifier" });
    expect(await verifyMachOSignature(path)).toMatchObject({ valid: true, identifier: "another-identifier" });
  });

  it("replaces a signature that no longer matches the file (as after Bun appended its segment)", async () => {
    const path = await writeSyntheticMachO(dir.path, "stale");
    await signMachOAdHoc(path, { identifier: "stale" });
    const file = await readFile(path);
    flipBits(file, LINKEDIT_OFFSET + 5, 0xff);
    await writeFile(path, file);
    expect((await verifyMachOSignature(path)).valid).toBe(false);
    await signMachOAdHoc(path, { identifier: "stale" });
    expect((await verifyMachOSignature(path)).valid).toBe(true);
  });

  it("refuses a universal (fat) file, naming it", async () => {
    const path = join(dir.path, "universal");
    const fat = Buffer.alloc(PAGE);
    fat.writeUInt32BE(0xcafebabe, 0);
    await writeFile(path, fat);
    await expect(signMachOAdHoc(path, { identifier: "fat" })).rejects.toThrow(
      new RegExp(`${path}.*universal \\(fat\\)`),
    );
    await expect(removeMachOSignature(path)).rejects.toThrow(/universal \(fat\)/);
  });

  it("refuses a 32-bit Mach-O file", async () => {
    const path = join(dir.path, "thirty-two");
    const file = Buffer.alloc(PAGE);
    file.writeUInt32LE(0xfeedface, 0);
    await writeFile(path, file);
    await expect(signMachOAdHoc(path, { identifier: "old" })).rejects.toThrow(/32-bit/);
  });

  it("refuses a file whose signature is not the last thing in it, and leaves the file alone", async () => {
    const path = await writeSyntheticMachO(dir.path, "trailing");
    await signMachOAdHoc(path, { identifier: "trailing" });
    await appendFile(path, Buffer.alloc(64, 0xaa));
    const before = await readFile(path);
    await expect(signMachOAdHoc(path, { identifier: "trailing" })).rejects.toThrow(
      new RegExp(`cannot replace the code signature of ${path}: .* not the last thing in the file`),
    );
    await expect(removeMachOSignature(path)).rejects.toThrow(/not the last thing in the file/);
    expect((await readFile(path)).equals(before)).toBe(true);
  });

  it("refuses an unsigned file with no room for LC_CODE_SIGNATURE before its first section", async () => {
    const path = await writeSyntheticMachO(dir.path, "crowded", { textSectionOffset: COMMANDS_END + 8 });
    await expect(signMachOAdHoc(path, { identifier: "crowded" })).rejects.toThrow(
      /no room for an LC_CODE_SIGNATURE load command .* \(8 bytes free\)/,
    );
  });

  it("refuses an empty identifier", async () => {
    const path = await writeSyntheticMachO(dir.path, "nameless");
    await expect(signMachOAdHoc(path, { identifier: "" })).rejects.toThrow(/identifier/);
  });
});

describe("removeMachOSignature", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir("macho-remove");
  });
  afterAll(() => dir.remove());

  it("gives back the unsigned file, which the verifier reports as having no signature", async () => {
    // A __LINKEDIT ending at a 16-byte boundary: signing adds no padding, so removal restores every byte.
    const original = syntheticMachO({ linkEditSize: 0x1230 });
    const path = join(dir.path, "round-trip");
    await writeFile(path, original, { mode: 0o755 });
    await signMachOAdHoc(path, { identifier: "round-trip" });

    expect(await removeMachOSignature(path)).toBe(true);
    expect((await readFile(path)).equals(original)).toBe(true);
    const report = await verifyMachOSignature(path);
    expect(report.valid).toBe(false);
    expect(report.problems).toEqual([expect.stringMatching(/no code signature/)]);
  });

  it("removes the command, zeroes its bytes and shrinks __LINKEDIT to end the file", async () => {
    const path = await writeSyntheticMachO(dir.path, "padded");
    await signMachOAdHoc(path, { identifier: "padded" });
    const { command, dataoff } = signatureParts(await readFile(path));

    expect(await removeMachOSignature(path)).toBe(true);
    const file = await readFile(path);
    expect(file.length).toBe(dataoff);
    expect(loadCommandCount(file)).toBe(3);
    expect(file.subarray(command, command + 16).every((byte) => byte === 0)).toBe(true);
    expect(LINKEDIT_OFFSET + linkEditSizes(file).filesize).toBe(file.length);
    await signMachOAdHoc(path, { identifier: "padded" });
    expect((await verifyMachOSignature(path)).valid).toBe(true);
  });

  it("leaves an unsigned file untouched and says so", async () => {
    const path = await writeSyntheticMachO(dir.path, "never-signed");
    const before = await readFile(path);
    expect(await removeMachOSignature(path)).toBe(false);
    expect((await readFile(path)).equals(before)).toBe(true);
  });
});
