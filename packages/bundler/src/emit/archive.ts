import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import {
  chmod,
  copyFile,
  cp,
  link,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Manifest } from "@executa/core";
import { create as createTar } from "tar";
import type { TargetPlatform } from "../platform/platforms.js";
import { archiveEntrypoint } from "./binary-manifest.js";
import { writeZip as writeZipFile } from "./zip.js";

/** Options of {@link createArchive}. */
export interface ArchiveOptions {
  /** Folder the archive and its `.sha256` go to. */
  outDir: string;
  name: string;
  platform: TargetPlatform;
  /** The distributed manifest (with `runtime.binary`), stored as `manifest.json`. */
  manifest: Manifest;
  /** The executable, stored as `bin/NAME` (`bin/NAME.exe` on Windows). */
  binary: string;
  /** A folder whose files are stored under `lib/` (native addons). */
  libDir?: string;
  /** A folder whose files are stored under `data/`. */
  dataDir?: string;
  /** Text files stored at the root after `manifest.json` (the licence notices and the SBOM). */
  rootFiles?: readonly { name: string; text: string }[];
}

/** What a registry's `binary_urls` entry needs, and where the files are. */
export interface ArchiveResult {
  path: string;
  /** `<path>.sha256`, in `sha256sum` format. */
  sha256Path: string;
  sha256: string;
  size: number;
  format: "tar.gz" | "zip";
  /** The entrypoint inside the archive. */
  entrypoint: string;
}

/** Fixed entry time, so the same inputs give the same archive bytes. */
const ENTRY_MTIME = new Date("2000-01-01T00:00:00Z");
const FILE_MODE = 0o644;
const EXECUTABLE_MODE = 0o755;

/** The archive's file name: `NAME-<platform>.tar.gz`, or `.zip` for Windows. */
export function archiveFileName(name: string, platform: TargetPlatform): string {
  return `${name}-${platform.key}.${platform.archive}`;
}

/**
 * Writes the platform's archive in the agent's binary layout: `manifest.json`,
 * `bin/NAME` (mode 0755), and `lib/` / `data/` when given; a `.tar.gz`, or a `.zip` for
 * Windows. Writes `<archive>.sha256` beside it. Entries carry no owner and a fixed time,
 * in a fixed order, so rebuilding the same binary gives the same bytes.
 */
export async function createArchive(options: ArchiveOptions): Promise<ArchiveResult> {
  const entrypoint = archiveEntrypoint(options.name, options.platform.key);
  const path = join(options.outDir, archiveFileName(options.name, options.platform));
  const stage = await mkdtemp(join(tmpdir(), "executa-archive-"));
  try {
    await writeFile(join(stage, "manifest.json"), `${JSON.stringify(options.manifest, null, 2)}\n`);
    const rootFiles = options.rootFiles ?? [];
    for (const file of rootFiles) await writeFile(join(stage, file.name), file.text);
    await mkdir(join(stage, "bin"));
    await link(options.binary, join(stage, entrypoint)).catch(() =>
      copyFile(options.binary, join(stage, entrypoint)),
    );
    if (options.libDir) await cp(options.libDir, join(stage, "lib"), { recursive: true });
    if (options.dataDir) await cp(options.dataDir, join(stage, "data"), { recursive: true });
    const entries = await stagedEntries(
      stage,
      entrypoint,
      rootFiles.map((file) => file.name),
    );
    if (options.platform.archive === "zip") await writeZip(stage, entries, path);
    else await writeTarGz(stage, entries, path);
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
  const sha256 = await sha256OfFile(path);
  const sha256Path = `${path}.sha256`;
  await writeFile(sha256Path, `${sha256}  ${basename(path)}\n`);
  const { size } = await stat(path);
  return { path, sha256Path, sha256, size, format: options.platform.archive, entrypoint };
}

interface StagedEntry {
  /** Relative, `/`-separated; folders end with `/`. */
  path: string;
  mode: number;
}

/**
 * Every entry in a fixed order (manifest, root files, bin, lib, data; names sorted), with
 * explicit modes (not the umask's), so every machine archives the same bytes.
 */
async function stagedEntries(
  stage: string,
  entrypoint: string,
  rootFiles: readonly string[],
): Promise<StagedEntry[]> {
  const entries: StagedEntry[] = [
    { path: "manifest.json", mode: FILE_MODE },
    ...rootFiles.map((path) => ({ path, mode: FILE_MODE })),
    { path: "bin/", mode: EXECUTABLE_MODE },
    { path: entrypoint, mode: EXECUTABLE_MODE },
  ];
  for (const top of ["lib", "data"]) {
    const files = await readdir(join(stage, top), { recursive: true, withFileTypes: true }).catch(
      () => undefined,
    );
    if (!files) continue;
    entries.push({ path: `${top}/`, mode: EXECUTABLE_MODE });
    const nested = files
      .map((entry) => {
        const relative = join(entry.parentPath, entry.name)
          .slice(stage.length + 1)
          .split("\\")
          .join("/");
        return entry.isDirectory()
          ? { path: `${relative}/`, mode: EXECUTABLE_MODE }
          : { path: relative, mode: relative.endsWith(".node") ? EXECUTABLE_MODE : FILE_MODE };
      })
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    entries.push(...nested);
  }
  for (const entry of entries) await chmod(join(stage, entry.path), entry.mode);
  return entries;
}

async function writeTarGz(stage: string, entries: StagedEntry[], path: string): Promise<void> {
  await createTar(
    { gzip: true, file: path, cwd: stage, portable: true, mtime: ENTRY_MTIME, noDirRecurse: true },
    entries.map((entry) => entry.path),
  );
}

async function writeZip(stage: string, entries: StagedEntry[], path: string): Promise<void> {
  const files = await Promise.all(
    entries.map(async ({ path: entry, mode }) =>
      entry.endsWith("/")
        ? { path: entry, mode }
        : { path: entry, mode, data: await readFile(join(stage, entry)) },
    ),
  );
  await writeZipFile(path, files);
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
