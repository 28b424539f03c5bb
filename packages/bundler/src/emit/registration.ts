import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Manifest } from "@executa/core";
import type { PlatformKey } from "../platform/platform-key.js";

/** Name of the local registration file in the output folder. */
export const REGISTRATION_FILE = "executa.json";

/**
 * `executa.json`: what a local host needs to register the built plugin without a
 * registry. Every path is relative to the folder holding this file, so `dist/` can be
 * moved or copied as a whole.
 */
export interface Registration {
  /** Format version of this file. */
  schema: 1;
  name: string;
  version: string;
  description: string;
  /** Platform of `command` when it is the binary; absent when only the bundle was built. */
  platform?: PlatformKey;
  /** argv to start the plugin: `["./NAME"]`, or `["node", "./NAME.cjs"]` without a binary. */
  command: string[];
  /** The one-file bundle, for `node` hosts. */
  bundle: string;
  /** The distributed manifest (`runtime.binary` included when a binary was built). */
  manifest: string;
  /** One `binary_urls` entry minus the `url`, keyed by platform, when an archive was built. */
  archives?: Partial<
    Record<PlatformKey, { file: string; sha256: string; size: number; format: "tar.gz"; entrypoint: string }>
  >;
}

/** Builds the registration of a build. */
export function registrationOf(input: {
  manifest: Manifest;
  bundleFile: string;
  manifestFile: string;
  binary?: { file: string; platform: PlatformKey };
  archive?: { file: string; sha256: string; size: number; entrypoint: string };
}): Registration {
  const { manifest, binary, archive } = input;
  const registration: Registration = {
    schema: 1,
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    command: binary ? [`./${binary.file}`] : ["node", `./${input.bundleFile}`],
    bundle: `./${input.bundleFile}`,
    manifest: `./${input.manifestFile}`,
  };
  if (binary) registration.platform = binary.platform;
  if (binary && archive) {
    registration.archives = {
      [binary.platform]: {
        file: `./${archive.file}`,
        sha256: archive.sha256,
        size: archive.size,
        format: "tar.gz" as const,
        entrypoint: archive.entrypoint,
      },
    };
  }
  return registration;
}

/** Writes `executa.json` into `outDir` and returns its path. */
export async function writeRegistration(outDir: string, registration: Registration): Promise<string> {
  const path = join(outDir, REGISTRATION_FILE);
  await writeFile(path, `${JSON.stringify(registration, null, 2)}\n`);
  return path;
}
