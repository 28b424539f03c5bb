import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { basename, join, relative } from "node:path";
import type { Manifest } from "@executa/core";
import { ExecutaBuildError } from "../errors/build-error.js";
import type { TargetPlatform } from "../platform/platforms.js";
import { sha256OfFile } from "./archive.js";
import { DATA_DIR, LIB_DIR } from "./binary-manifest.js";
import { MCPB_ICON, type McpbManifest, mcpbManifest } from "./mcpb-manifest.js";
import { writeZip, type ZipEntry } from "./zip.js";

/** Options of {@link createMcpb}. */
export interface McpbOptions {
  /** Folder the bundle and its `.sha256` go to. */
  outDir: string;
  name: string;
  platform: TargetPlatform;
  /** The distributed manifest (with `runtime.binary`). */
  manifest: Manifest;
  /** The executable, stored as `bin/NAME` (`bin/NAME.exe` on Windows), mode 0755. */
  binary: string;
  /** A folder whose files are stored under `lib/` (native addons). */
  libDir?: string;
  /** A folder whose files are stored under `data/`. */
  dataDir?: string;
  /** A PNG stored as `icon.png` (checked with {@link readPngIcon}). */
  icon?: Uint8Array;
  /** Text files stored at the root after `manifest.json` (the licence notices and the SBOM). */
  rootFiles?: readonly { name: string; text: string }[];
}

/** A written bundle. */
export interface McpbResult {
  /** The bundle, `NAME-<platform>.mcpb`. */
  path: string;
  /** `<path>.sha256`, in `sha256sum` format. */
  sha256Path: string;
  /** The bundle's SHA-256, hex. */
  sha256: string;
  /** The bundle's size in bytes. */
  size: number;
  /** The bundle's `manifest.json`. */
  manifest: McpbManifest;
}

const FILE_MODE = 0o644;
const EXECUTABLE_MODE = 0o755;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The bundle's file name: `NAME-<platform>.mcpb`. */
export function mcpbFileName(name: string, platform: TargetPlatform): string {
  return `${name}-${platform.key}.mcpb`;
}

/**
 * Writes one platform's MCP bundle: a zip of `manifest.json` (see `mcpbManifest`), the root
 * files (licence notices, SBOM) when given, the executable at its entry point with mode
 * 0755, `lib/` and `data/` when given, and `icon.png` when given; then `<bundle>.sha256`
 * beside it. No folder entries (unpackers write every entry as a file), a fixed order and
 * time: the same inputs give the same bytes.
 */
export async function createMcpb(options: McpbOptions): Promise<McpbResult> {
  const manifest = mcpbManifest({
    manifest: options.manifest,
    name: options.name,
    platform: options.platform,
    icon: options.icon !== undefined,
    data: options.dataDir !== undefined,
  });
  const files: ZipEntry[] = [];
  const add = (path: string, data: Uint8Array, executable = false) =>
    files.push({ path, data, mode: executable ? EXECUTABLE_MODE : FILE_MODE });
  const encoder = new TextEncoder();
  add("manifest.json", encoder.encode(`${JSON.stringify(manifest, null, 2)}\n`));
  for (const file of options.rootFiles ?? []) add(file.name, encoder.encode(file.text));
  add(manifest.server.entry_point, await readFile(options.binary), true);
  if (options.icon) add(MCPB_ICON, options.icon);
  for (const [top, folder] of [
    [LIB_DIR, options.libDir],
    [DATA_DIR, options.dataDir],
  ] as const) {
    if (!folder) continue;
    for (const file of await filesUnder(folder)) {
      add(`${top}/${file}`, await readFile(join(folder, file)), file.endsWith(".node"));
    }
  }
  const path = join(options.outDir, mcpbFileName(options.name, options.platform));
  await writeZip(path, files);
  const sha256 = await sha256OfFile(path);
  const sha256Path = `${path}.sha256`;
  await writeFile(sha256Path, `${sha256}  ${basename(path)}\n`);
  const { size } = await stat(path);
  return { path, sha256Path, sha256, size, manifest };
}

/** Every file under a folder, relative and `/`-separated, sorted. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The bundle icon: the PNG at `path`. A file that is not a PNG fails the build, since a
 * bundle's icon must be one.
 */
export async function readPngIcon(path: string): Promise<Uint8Array> {
  const bytes = await readFile(path).catch((error: unknown) => {
    throw new ExecutaBuildError(
      "INVALID_OPTIONS",
      `the bundle icon ${path} cannot be read (${(error as Error).message}); give a PNG file or leave the option out`,
      { step: "mcpb", cause: error },
    );
  });
  if (!PNG_SIGNATURE.every((byte, index) => bytes[index] === byte)) {
    throw new ExecutaBuildError(
      "INVALID_OPTIONS",
      `the bundle icon ${path} is not a PNG; .mcpb bundles take a PNG icon only (512×512 recommended): convert it, or leave the option out`,
      { step: "mcpb" },
    );
  }
  return bytes;
}
