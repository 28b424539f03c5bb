import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeZip, type ZipEntry } from "../../src/emit/zip.js";
import { tempDir } from "../helpers/temp-dir.js";

/** Each central directory record's name, compression method and Unix mode. */
function centralDirectory(bytes: Buffer): { name: string; method: number; mode: number }[] {
  const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  const records = [];
  for (let at = bytes.indexOf(signature); at !== -1; at = bytes.indexOf(signature, at + 46)) {
    const nameLength = bytes.readUInt16LE(at + 28);
    records.push({
      name: bytes.toString("utf8", at + 46, at + 46 + nameLength),
      method: bytes.readUInt16LE(at + 10),
      mode: bytes.readUInt32LE(at + 38) >>> 16,
    });
  }
  return records;
}

describe("writeZip", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  // 16 MiB, each random 8 KiB block twice (within deflate's window, so it shrinks).
  const large = Buffer.concat(
    Array.from({ length: 1024 }, () => randomBytes(8 * 1024)).flatMap((b) => [b, b]),
  );
  const entries: ZipEntry[] = [
    { path: "manifest.json", mode: 0o644, data: Buffer.from('{"name":"tiny"}\n') },
    { path: "bin/", mode: 0o755 },
    { path: "bin/tiny", mode: 0o755, data: large },
  ];
  beforeAll(async () => {
    dir = await tempDir("zip");
  });
  afterAll(() => dir?.remove());

  it("writes the entries in order, deflated, with their Unix modes and bytes", async () => {
    const path = join(dir.path, "order.zip");
    await writeZip(path, entries);
    const bytes = await readFile(path);
    const files = unzipSync(bytes);
    expect(Object.keys(files)).toEqual(["manifest.json", "bin/", "bin/tiny"]);
    expect(Buffer.from(files["bin/tiny"]!).equals(large)).toBe(true);
    expect(Buffer.from(files["manifest.json"]!).toString("utf8")).toBe('{"name":"tiny"}\n');
    expect(centralDirectory(bytes)).toEqual([
      { name: "manifest.json", method: 8, mode: 0o100644 },
      { name: "bin/", method: 0, mode: 0o40755 },
      { name: "bin/tiny", method: 8, mode: 0o100755 },
    ]);
    expect(bytes.length).toBeLessThan(large.length * 0.6);
  });

  it("gives the same bytes for the same entries", async () => {
    await writeZip(join(dir.path, "first.zip"), entries);
    await writeZip(join(dir.path, "second.zip"), entries);
    const [first, second] = await Promise.all(
      ["first.zip", "second.zip"].map((file) => readFile(join(dir.path, file))),
    );
    expect(first!.equals(second!)).toBe(true);
  });
});
