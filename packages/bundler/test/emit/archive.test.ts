import { createHash } from "node:crypto";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { extract, list } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArchive, sha256OfFile } from "../../src/emit/archive.js";
import { distributionManifest } from "../../src/emit/binary-manifest.js";
import { tempDir } from "../helpers/temp-dir.js";

const manifest = distributionManifest(
  { name: "tiny", version: "1.0.0", description: "Tiny.", tools: [{ name: "t", description: "T." }] },
  "tiny",
  "linux-x86_64",
);

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
      platform: "linux-x86_64",
      manifest,
      binary,
    });
    expect(archive.path).toBe(join(dir.path, "tiny-linux-x86_64.tar.gz"));
    expect(archive.entrypoint).toBe("bin/tiny");

    const entries: { path: string; mode: number | undefined; uid: number | undefined }[] = [];
    await list({
      file: archive.path,
      onReadEntry: (e) => entries.push({ path: e.path, mode: e.mode, uid: e.uid }),
    });
    expect(entries.map((e) => e.path)).toEqual(["manifest.json", "bin/", "bin/tiny"]);
    expect(entries.find((e) => e.path === "bin/tiny")?.mode).toBe(0o755);
    expect(entries.find((e) => e.path === "manifest.json")?.mode).toBe(0o644);

    const out = join(dir.path, "extracted");
    await import("node:fs/promises").then((fs) => fs.mkdir(out));
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
    const first = await createArchive({
      outDir: dir.path,
      name: "tiny",
      platform: "linux-x86_64",
      manifest,
      binary,
    });
    const firstSha = first.sha256;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await createArchive({
      outDir: dir.path,
      name: "tiny",
      platform: "linux-x86_64",
      manifest,
      binary,
    });
    expect(second.sha256).toBe(firstSha);
    expect(await sha256OfFile(second.path)).toBe(firstSha);
    expect((await stat(second.path)).size).toBe(second.size);
  });

  it("names the Windows entrypoint NAME.exe", async () => {
    const windows = distributionManifest(manifest, "tiny", "windows-x86_64");
    expect(windows.runtime?.binary).toEqual({
      entrypoint: { default: "bin/tiny.exe", "windows-x86_64": "bin/tiny.exe" },
      permissions: { "bin/tiny.exe": "0o755" },
    });
    const archive = await createArchive({
      outDir: dir.path,
      name: "tiny",
      platform: "windows-x86_64",
      manifest: windows,
      binary,
    });
    const paths: string[] = [];
    await list({ file: archive.path, onReadEntry: (e) => paths.push(e.path) });
    expect(paths).toContain("bin/tiny.exe");
  });
});
