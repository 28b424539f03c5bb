import { createHash } from "node:crypto";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { extract, list } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArchive, sha256OfFile } from "../../src/emit/archive.js";
import { distributionManifest } from "../../src/emit/binary-manifest.js";
import { targetPlatform } from "../../src/platform/platforms.js";
import { tempDir } from "../helpers/temp-dir.js";

const base = {
  name: "tiny",
  version: "1.0.0",
  description: "Tiny.",
  tools: [{ name: "t", description: "T." }],
};
const manifest = distributionManifest(base, "tiny", ["linux-x86_64"]);
const linux = targetPlatform("linux-x86_64");
const windows = targetPlatform("windows-x86_64");

/** Unix mode of a zip entry, from the high half of its external attributes (as `unzip -Z` reads it). */
function zipModes(bytes: Buffer): Map<string, number> {
  const modes = new Map<string, number>();
  // Central directory records: signature 0x02014b50, external attributes at +38, name length at +28, name at +46.
  for (let at = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at !== -1; ) {
    const nameLength = bytes.readUInt16LE(at + 28);
    const name = bytes.toString("utf8", at + 46, at + 46 + nameLength);
    modes.set(name, bytes.readUInt32LE(at + 38) >>> 16);
    at = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 46);
  }
  return modes;
}

describe("createArchive", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let binary: string;
  beforeAll(async () => {
    dir = await tempDir("archive");
    binary = join(dir.path, "tiny-binary");
    await writeFile(binary, Buffer.from("\x7fELF pretend executable"), { mode: 0o700 });
  });
  afterAll(() => dir.remove());

  it("holds manifest.json and bin/NAME (0755), with a matching .sha256", async () => {
    const archive = await createArchive({
      outDir: dir.path,
      name: "tiny",
      platform: linux,
      manifest,
      binary,
    });
    expect(archive.path).toBe(join(dir.path, "tiny-linux-x86_64.tar.gz"));
    expect(archive.entrypoint).toBe("bin/tiny");
    expect(archive.format).toBe("tar.gz");

    const entries: { path: string; mode: number | undefined }[] = [];
    await list({ file: archive.path, onReadEntry: (e) => entries.push({ path: e.path, mode: e.mode }) });
    expect(entries.map((e) => e.path)).toEqual(["manifest.json", "bin/", "bin/tiny"]);
    expect(entries.find((e) => e.path === "bin/tiny")?.mode).toBe(0o755);
    expect(entries.find((e) => e.path === "manifest.json")?.mode).toBe(0o644);

    const out = join(dir.path, "extracted");
    await mkdir(out);
    await extract({ file: archive.path, cwd: out });
    expect(JSON.parse(await readFile(join(out, "manifest.json"), "utf8"))).toEqual(manifest);
    expect(await readFile(join(out, "bin/tiny"))).toEqual(await readFile(binary));

    const bytes = await readFile(archive.path);
    const digest = createHash("sha256").update(bytes).digest("hex");
    expect(archive.sha256).toBe(digest);
    expect(archive.size).toBe(bytes.length);
    expect(await readFile(archive.sha256Path, "utf8")).toBe(`${digest}  tiny-linux-x86_64.tar.gz\n`);
  });

  it("gives the same bytes for the same inputs", async () => {
    const make = () => createArchive({ outDir: dir.path, name: "tiny", platform: linux, manifest, binary });
    const first = (await make()).sha256;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await make();
    expect(second.sha256).toBe(first);
    expect(await sha256OfFile(second.path)).toBe(first);
    expect((await stat(second.path)).size).toBe(second.size);
  });

  it("makes a .zip for Windows with bin/NAME.exe, Unix modes kept, the same bytes each time", async () => {
    const winManifest = distributionManifest(base, "tiny", ["windows-x86_64"]);
    const make = () =>
      createArchive({ outDir: dir.path, name: "tiny", platform: windows, manifest: winManifest, binary });
    const archive = await make();
    expect(archive.path).toBe(join(dir.path, "tiny-windows-x86_64.zip"));
    expect(archive.format).toBe("zip");
    expect(archive.entrypoint).toBe("bin/tiny.exe");
    const bytes = await readFile(archive.path);
    const files = unzipSync(bytes);
    expect(Object.keys(files)).toEqual(["manifest.json", "bin/", "bin/tiny.exe"]);
    expect(Buffer.from(files["bin/tiny.exe"]!)).toEqual(await readFile(binary));
    expect(JSON.parse(Buffer.from(files["manifest.json"]!).toString("utf8"))).toEqual(winManifest);
    const modes = zipModes(bytes);
    expect(modes.get("bin/tiny.exe")).toBe(0o100755);
    expect(modes.get("manifest.json")).toBe(0o100644);
    expect(modes.get("bin/")).toBe(0o40755);
    expect(await readFile(`${archive.path}.sha256`, "utf8")).toBe(
      `${archive.sha256}  tiny-windows-x86_64.zip\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await make()).sha256).toBe(archive.sha256);
  });

  it("ships lib/ and data/ folders in the multi-file layout, sorted", async () => {
    const lib = join(dir.path, "lib-src");
    const data = join(dir.path, "data-src");
    await mkdir(join(data, "nested"), { recursive: true });
    await mkdir(lib, { recursive: true });
    await writeFile(join(lib, "addon.node"), "addon");
    await writeFile(join(data, "b.txt"), "b");
    await writeFile(join(data, "a.txt"), "a");
    await writeFile(join(data, "nested", "c.txt"), "c");
    const layout = distributionManifest(base, "tiny", ["linux-x86_64"], { lib: true, data: true });
    const archive = await createArchive({
      outDir: dir.path,
      name: "tiny",
      platform: linux,
      manifest: layout,
      binary,
      libDir: lib,
      dataDir: data,
    });
    const entries: { path: string; mode: number | undefined }[] = [];
    await list({ file: archive.path, onReadEntry: (e) => entries.push({ path: e.path, mode: e.mode }) });
    expect(entries.map((e) => e.path)).toEqual([
      "manifest.json",
      "bin/",
      "bin/tiny",
      "lib/",
      "lib/addon.node",
      "data/",
      "data/a.txt",
      "data/b.txt",
      "data/nested/",
      "data/nested/c.txt",
    ]);
    expect(entries.find((e) => e.path === "lib/addon.node")?.mode).toBe(0o755);
    expect(entries.find((e) => e.path === "data/a.txt")?.mode).toBe(0o644);
    expect(layout.runtime?.binary).toMatchObject({ lib_dirs: ["lib"], data_dirs: ["data"] });
  });
});

describe("distributionManifest", () => {
  it("names the entrypoint per platform, the Unix one as default, and each executable's mode", () => {
    const all = distributionManifest(base, "tiny", ["darwin-arm64", "windows-x86_64", "linux-aarch64"]);
    expect(all.runtime?.binary).toEqual({
      entrypoint: {
        default: "bin/tiny",
        "darwin-arm64": "bin/tiny",
        "windows-x86_64": "bin/tiny.exe",
        "linux-aarch64": "bin/tiny",
      },
      permissions: { "bin/tiny": "0o755", "bin/tiny.exe": "0o755" },
    });
  });

  it("uses the .exe as default when only Windows was built", () => {
    expect(distributionManifest(base, "tiny", ["windows-arm64"]).runtime?.binary?.entrypoint).toEqual({
      default: "bin/tiny.exe",
      "windows-arm64": "bin/tiny.exe",
    });
  });
});
