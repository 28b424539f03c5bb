import { createHash } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { unzipSync } from "fflate";
import { extract } from "tar";

/** A component of a build's CycloneDX SBOM, as far as the tests read it. */
export interface SbomComponent {
  type: string;
  name: string;
  version: string;
  licenses: { expression?: string }[];
  hashes?: { alg: string; content: string }[];
}

/** The licence notices and the SBOM at an archive's root. */
export interface RootFiles {
  notices: string;
  sbom: string;
}

/** The sha256 of a file, in hex. */
export const sha256 = async (path: string): Promise<string> =>
  createHash("sha256")
    .update(await readFile(path))
    .digest("hex");

/**
 * The packages a bundle embeds as its source map records them (every input with bytes in
 * the bundle), independently of the build's own reading: a file in pnpm's store belongs to
 * the package of its `.pnpm/NAME@VERSION` folder (a package's own chained source maps may
 * name paths outside it, e.g. `node_modules/src/…`); another `node_modules/NAME` path is
 * that package; a workspace package's file is the package whose folder holds it; the app's
 * own files are left out.
 */
export async function packagesInSourceMap(mapPath: string): Promise<string[]> {
  const map = JSON.parse(await readFile(mapPath, "utf8")) as { sources: string[] };
  const names = new Set<string>();
  for (const source of map.sources) {
    const path = resolve(dirname(mapPath), source).split(sep).join("/");
    const store = /\/node_modules\/\.pnpm\/([^/]+)\//.exec(path)?.[1];
    if (store) {
      names.add(
        store.startsWith("@")
          ? `@${store.slice(1).split("@")[0]?.replace("+", "/")}`
          : (store.split("@")[0] ?? store),
      );
      continue;
    }
    const inModules = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
    if (inModules) {
      names.add(inModules);
      continue;
    }
    const workspace = /(.*\/packages\/[^/]+)\//.exec(path)?.[1];
    if (workspace) names.add(JSON.parse(await readFile(join(workspace, "package.json"), "utf8")).name);
  }
  return [...names].sort();
}

/** The notices and SBOM at the root of a zip (an archive or an `.mcpb`). */
export async function rootFilesOfZip(archive: string): Promise<RootFiles> {
  const files = unzipSync(await readFile(archive));
  const text = (name: string) => Buffer.from(files[name] ?? new Uint8Array()).toString("utf8");
  return { notices: text("THIRD_PARTY_NOTICES.txt"), sbom: text("sbom.cdx.json") };
}

/** The notices and SBOM at the root of a `.tar.gz`, unpacked into a folder of `scratch` named after `platform`. */
export async function rootFilesOfTar(archive: string, scratch: string, platform: string): Promise<RootFiles> {
  const unpacked = join(scratch, `unpacked-notices-${platform}`);
  await mkdir(unpacked, { recursive: true });
  await extract({ file: archive, cwd: unpacked });
  return {
    notices: await readFile(join(unpacked, "THIRD_PARTY_NOTICES.txt"), "utf8"),
    sbom: await readFile(join(unpacked, "sbom.cdx.json"), "utf8"),
  };
}
