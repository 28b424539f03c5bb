import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostPlatform, platformKey, platformOfBinary } from "../../src/platform/platform-key.js";
import { tempDir } from "../helpers/temp-dir.js";

function elf(machine: number, osabi = 0): Buffer {
  const header = Buffer.alloc(64);
  header.writeUInt32BE(0x7f454c46, 0);
  header[4] = 2; // 64-bit
  header[5] = 1; // little endian
  header[7] = osabi;
  header.writeUInt16LE(machine, 18);
  return header;
}

function macho(cpu: number): Buffer {
  const header = Buffer.alloc(32);
  header.writeUInt32LE(0xfeedfacf, 0);
  header.writeUInt32LE(cpu, 4);
  return header;
}

function pe(machine: number): Buffer {
  const file = Buffer.alloc(0x200);
  file.write("MZ", 0, "latin1");
  file.writeUInt32LE(0x80, 0x3c);
  file.write("PE\0\0", 0x80, "latin1");
  file.writeUInt16LE(machine, 0x84);
  return file;
}

describe("platform keys", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const write = async (name: string, bytes: Buffer) => {
    const path = join(dir.path, name);
    await writeFile(path, bytes);
    return path;
  };
  beforeAll(async () => {
    dir = await tempDir("platform");
  });
  afterAll(() => dir.remove());

  it("reads the running node binary as this machine's platform", async () => {
    const platform = await platformOfBinary(process.execPath);
    expect(platform.key).toBe(hostPlatform());
    expect(platform.key).toBe(platformKey(process.platform, process.arch));
  });

  it.each([
    ["ELF x86-64", elf(0x3e), "linux-x86_64", "elf"],
    ["ELF AArch64", elf(0xb7), "linux-aarch64", "elf"],
    ["ELF FreeBSD x86-64", elf(0x3e, 9), "freebsd-x86_64", "elf"],
    ["Mach-O arm64", macho(0x0100000c), "darwin-arm64", "macho"],
    ["Mach-O x86_64", macho(0x01000007), "darwin-x86_64", "macho"],
    ["PE x86-64", pe(0x8664), "windows-x86_64", "pe"],
    ["PE arm64", pe(0xaa64), "windows-arm64", "pe"],
  ])("derives the key from a %s header", async (label, bytes, key, format) => {
    const platform = await platformOfBinary(await write(label.replace(/\W+/g, "-"), bytes));
    expect(platform).toMatchObject({ key, format });
  });

  it("rejects files that are no executable, universal binaries and unknown CPUs", async () => {
    await expect(platformOfBinary(await write("text", Buffer.from("#!/bin/sh\necho hi\n")))).rejects.toThrow(
      /not an ELF, Mach-O or PE executable/,
    );
    const fat = Buffer.alloc(32);
    fat.writeUInt32BE(0xcafebabe, 0);
    await expect(platformOfBinary(await write("fat", fat))).rejects.toThrow(/universal/);
    await expect(platformOfBinary(await write("mips", elf(0x08)))).rejects.toThrow(/unknown CPU \(0x8\)/);
  });

  it("spells architectures as the registry keys do", () => {
    expect(platformKey("linux", "x64")).toBe("linux-x86_64");
    expect(platformKey("linux", "arm64")).toBe("linux-aarch64");
    expect(platformKey("darwin", "arm64")).toBe("darwin-arm64");
    expect(platformKey("darwin", "x64")).toBe("darwin-x86_64");
    expect(platformKey("win32", "x64")).toBe("windows-x86_64");
    expect(() => platformKey("aix", "ppc64")).toThrow(/aix/);
  });
});
