import type { Manifest } from "@executa/core";
import { RUNTIMES, type RuntimeName } from "../runtime/runtimes.js";
import { type BinaryContents, NOTICES_FILE, noticesText, SBOM_FILE, sbomJson } from "./binary-contents.js";
import type { EmbeddedPackage } from "./embedded-packages.js";

/** What the notices and the SBOM of a binary are made from. */
export interface RootFilesBuild {
  /** The artifact name. */
  name: string;
  source: { manifest: Manifest };
  /** The packages the bundle embeds; undefined without the bundle's inputs. */
  embedded?: readonly EmbeddedPackage[];
}

/** A text file shipped at the root of an archive or an `.mcpb`. */
export interface RootFile {
  name: string;
  text: string;
}

/**
 * The licence notices and the CycloneDX SBOM of one binary (the packages its bundle
 * embeds and its runtime), shipped beside it in every archive and `.mcpb`; none when the
 * embedded packages are not known.
 */
export function binaryRootFiles(
  build: RootFilesBuild,
  binary: { runtime: RuntimeName; runtimeVersion: string },
): RootFile[] {
  if (!build.embedded) return [];
  const contents: BinaryContents = {
    plugin: { name: build.name, version: build.source.manifest.version },
    packages: [...build.embedded],
    runtime: {
      ...RUNTIMES[binary.runtime].about,
      name: binary.runtime,
      version: binary.runtimeVersion.replace(/^v/, ""),
    },
    tool: { name: "@executa/bundler" },
  };
  return [
    { name: NOTICES_FILE, text: noticesText(contents) },
    { name: SBOM_FILE, text: sbomJson(contents) },
  ];
}
