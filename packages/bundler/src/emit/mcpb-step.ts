import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Manifest } from "@executa/core";
import { binaryRootFiles, type RootFilesBuild } from "../notices/root-files.js";
import type { KnownPlatform } from "../platform/platforms.js";
import { targetPlatform } from "../platform/platforms.js";
import { formatBytes } from "../report/format.js";
import type { Reporter } from "../report/reporter.js";
import type { RuntimeName } from "../runtime/runtimes.js";
import { LIB_DIR } from "./binary-manifest.js";
import { createMcpb, type McpbResult, readPngIcon } from "./mcpb.js";
import { MCPB_ICON } from "./mcpb-manifest.js";

/** What the `mcpb` step reads of the build, and where it records its bundles. */
export interface McpbStepBuild extends RootFilesBuild {
  options: {
    mcpb?: boolean;
    mcpbIcon?: string;
    projectDir?: string;
    dataDir?: string;
    nativeAddons?: readonly unknown[];
  };
  outDir: string;
  name: string;
  distributed: Manifest;
  binaries: readonly {
    platform: KnownPlatform;
    path: string;
    runtime: RuntimeName;
    runtimeVersion: string;
  }[];
  report: Reporter;
  shown: (path: string) => string;
  outputs: Set<string>;
  mcpbBundles: (McpbResult & { platform: KnownPlatform })[];
}

/** With the `mcpb` option: an MCP bundle per binary, with its sha256, its licence notices and SBOM. */
export async function packMcpbBundles(build: McpbStepBuild): Promise<void> {
  const { options, outDir } = build;
  if (!options.mcpb || build.binaries.length === 0) return;
  const iconPath = bundleIcon(options);
  const icon = iconPath === undefined ? undefined : await readPngIcon(iconPath);
  const libDir = (options.nativeAddons?.length ?? 0) > 0 ? join(outDir, LIB_DIR) : undefined;
  for (const binary of build.binaries) {
    const bundle = await createMcpb({
      outDir,
      name: build.name,
      platform: targetPlatform(binary.platform),
      manifest: build.distributed,
      binary: binary.path,
      libDir,
      dataDir: options.dataDir ? resolve(options.dataDir) : undefined,
      icon,
      rootFiles: binaryRootFiles(build, binary),
    });
    build.outputs.add(bundle.path).add(bundle.sha256Path);
    build.mcpbBundles.push({ ...bundle, platform: binary.platform });
    build.report.step("mcpb", `${build.shown(bundle.path)}  ${formatBytes(bundle.size)}`, [
      `sha256 ${bundle.sha256}`,
    ]);
  }
}

/** The icon option, else the project's `icon.png` when it exists. */
function bundleIcon(options: McpbStepBuild["options"]): string | undefined {
  if (options.mcpbIcon !== undefined) return resolve(options.mcpbIcon);
  const own = join(resolve(options.projectDir ?? process.cwd()), MCPB_ICON);
  return existsSync(own) ? own : undefined;
}
