import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { chmod, copyFile, link, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Manifest } from "@executa/core";
import { create as createTar } from "tar";
import type { PlatformKey } from "../platform/platform-key.js";
import { archiveEntrypoint } from "./binary-manifest.js";

/** Options of {@link createArchive}. */
export interface ArchiveOptions {
  /** Folder the archive and its `.sha256` go to. */
  outDir: string;
  name: string;
  platform: PlatformKey;
  /** The distributed manifest (with `runtime.binary`), stored as `manifest.json`. */
  manifest: Manifest;
  /** The executable, stored as `bin/NAME` (`bin/NAME.exe` on Windows). */
  binary: string;
}

/** What a registry's `binary_urls` entry needs, and where the files are. */
export interface ArchiveResult {
  path: string;
  /** `<path>.sha256`, in `sha256sum` format. */
  sha256Path: string;
  sha256: string;
  size: number;
  format: "tar.gz";
  /** The entrypoint inside the archive. */
  entrypoint: string;
}

/** Fixed entry time, so the same inputs give the same archive bytes. */
const ENTRY_MTIME = new Date("2000-01-01T00:00:00Z");

/**
 * Writes `NAME-<platform>.tar.gz` holding `manifest.json` and `bin/NAME` (mode 0755),
 * and `NAME-<platform>.tar.gz.sha256` beside it. Entries carry no owner and a fixed
 * time, so rebuilding the same binary gives the same archive and checksum.
 */
export async function createArchive(options: ArchiveOptions): Promise<ArchiveResult> {
  const entrypoint = archiveEntrypoint(options.name, options.platform);
  const path = join(options.outDir, `${options.name}-${options.platform}.tar.gz`);
  const stage = await mkdtemp(join(tmpdir(), "executa-archive-"));
  try {
    await writeFile(join(stage, "manifest.json"), `${JSON.stringify(options.manifest, null, 2)}\n`);
    await mkdir(join(stage, "bin"));
    await link(options.binary, join(stage, entrypoint)).catch(() =>
      copyFile(options.binary, join(stage, entrypoint)),
    );
    // Modes set explicitly (not left to the umask), so every machine archives the same bytes.
    await chmod(join(stage, "manifest.json"), 0o644);
    await chmod(join(stage, "bin"), 0o755);
    await chmod(join(stage, entrypoint), 0o755);
    await createTar(
      {
        gzip: true,
        file: path,
        cwd: stage,
        portable: true,
        mtime: ENTRY_MTIME,
        noDirRecurse: true,
      },
      ["manifest.json", "bin", entrypoint],
    );
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
  const sha256 = await sha256OfFile(path);
  const sha256Path = `${path}.sha256`;
  await writeFile(sha256Path, `${sha256}  ${basename(path)}\n`);
  const { size } = await stat(path);
  return { path, sha256Path, sha256, size, format: "tar.gz", entrypoint };
}

/** The sha256 of a file, hex. */
export function sha256OfFile(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .once("error", reject)
      .once("end", () => resolve(hash.digest("hex")));
  });
}
