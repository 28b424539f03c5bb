import type { Manifest, RuntimeBinary } from "@executa/core";
import type { PlatformKey } from "../platform/platform-key.js";
import { type KnownPlatform, targetPlatform } from "../platform/platforms.js";

/** The folders of the multi-file layout, relative to the install folder (`EXECUTA_HOME`). */
export const LIB_DIR = "lib";
export const DATA_DIR = "data";

/** File name of the executable: `NAME`, or `NAME.exe` for Windows. */
export function binaryFileName(name: string, platform: PlatformKey): string {
  return platform.startsWith("windows-") ? `${name}.exe` : name;
}

/** Path of the executable inside the archive: `bin/NAME` (`bin/NAME.exe` on Windows). */
export function archiveEntrypoint(name: string, platform: PlatformKey): string {
  return `bin/${binaryFileName(name, platform)}`;
}

/** What an archive holds besides `bin/` and `manifest.json`. */
export interface ArchiveLayout {
  /** Native addons under `lib/`. */
  lib?: boolean;
  /** Data files under `data/`. */
  data?: boolean;
}

/**
 * The `runtime.binary` block of protocol-v2-notes ("Binary distribution layout") for the
 * built platforms: the entrypoint under `default` and under each platform's key, the
 * executables' mode, and `lib_dirs` / `data_dirs` when the archives carry those folders.
 */
export function runtimeBinary(
  name: string,
  platforms: readonly KnownPlatform[],
  layout: ArchiveLayout = {},
): RuntimeBinary {
  const entrypoints = platforms.map((key) => [key, archiveEntrypoint(name, key)] as const);
  const unix = entrypoints.find(([key]) => targetPlatform(key).os !== "windows");
  const fallback = (unix ?? entrypoints[0])?.[1] ?? `bin/${name}`;
  const binary: RuntimeBinary = {
    entrypoint: { default: fallback, ...Object.fromEntries(entrypoints) },
    permissions: Object.fromEntries(entrypoints.map(([, path]) => [path, "0o755"])),
  };
  if (layout.lib) binary.lib_dirs = [LIB_DIR];
  if (layout.data) binary.data_dirs = [DATA_DIR];
  return binary;
}

/**
 * The distributed manifest: exactly what the artifact answers to `describe`, plus
 * `runtime.binary`; runtime hints the plugin declared itself are kept.
 */
export function distributionManifest(
  manifest: Manifest,
  name: string,
  platforms: readonly KnownPlatform[],
  layout: ArchiveLayout = {},
): Manifest {
  return { ...manifest, runtime: { ...manifest.runtime, binary: runtimeBinary(name, platforms, layout) } };
}
