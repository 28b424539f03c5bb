import type { Manifest, RuntimeBinary } from "@executa/core";
import type { PlatformKey } from "../platform/platform-key.js";

/** File name of the executable: `NAME`, or `NAME.exe` for Windows. */
export function binaryFileName(name: string, platform: PlatformKey): string {
  return platform.startsWith("windows-") ? `${name}.exe` : name;
}

/** Path of the executable inside the archive: `bin/NAME` (`bin/NAME.exe` on Windows). */
export function archiveEntrypoint(name: string, platform: PlatformKey): string {
  return `bin/${binaryFileName(name, platform)}`;
}

/**
 * The `runtime.binary` block of protocol-v2-notes ("Binary distribution layout") for a
 * one-platform archive: the entrypoint under the platform's key and under `default`,
 * and the executable's mode. No `lib_dirs` / `data_dirs`: the binary is self-contained.
 */
export function runtimeBinary(name: string, platform: PlatformKey): RuntimeBinary {
  const entrypoint = archiveEntrypoint(name, platform);
  return {
    entrypoint: { default: entrypoint, [platform]: entrypoint },
    permissions: { [entrypoint]: "0o755" },
  };
}

/**
 * The distributed manifest: exactly what the artifact answers to `describe`, plus
 * `runtime.binary`; runtime hints the plugin declared itself are kept.
 */
export function distributionManifest(manifest: Manifest, name: string, platform: PlatformKey): Manifest {
  return { ...manifest, runtime: { ...manifest.runtime, binary: runtimeBinary(name, platform) } };
}
