import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { Manifest } from "@executa/core";
import { type CompatReport, checkCompatibility } from "../compat/compat-report.js";
import { comparable, readSurface, surfaceOf } from "../compat/read-surface.js";
import { ExecutaBuildError } from "../errors/build-error.js";
import { packageVersionOf } from "../source-info/package-version.js";
import type { ToolSchemas } from "../verify/mcp-answers.js";

/** The committed last-released tool surface, at the project's root. */
export const SURFACE_FILE = "executa.surface.json";

/** Options of the build's surface steps. */
export interface SurfaceOptions {
  /**
   * The released surface to compare with: a manifest, `executa.surface.json`,
   * `executa.json` or a release archive. Default: the project's `executa.surface.json`
   * when there is one; `false` compares with nothing.
   */
  compat?: string | false;
  /** Write the built surface to the project's `executa.surface.json` after a good build (a release). */
  release?: boolean;
  /** The project folder. Default: the working directory. */
  projectDir?: string;
}

/** The released surface's file the build compares with, if any. */
export function surfaceFileOf(options: SurfaceOptions): string | undefined {
  if (options.compat === false) return undefined;
  if (options.compat !== undefined) return resolve(options.compat);
  const file = releasedSurfaceFile(options);
  return existsSync(file) ? file : undefined;
}

/**
 * Compares the built manifest with the released surface; throws `BREAKING_CHANGE` naming
 * each breaking change and the version it needs when the version is not bumped enough.
 * Resolves with the report (undefined when there is nothing to compare with).
 */
export async function checkSurface(
  manifest: Manifest,
  options: SurfaceOptions,
  schemas: Partial<ToolSchemas> = {},
): Promise<CompatReport | undefined> {
  const file = surfaceFileOf(options);
  if (!file) return undefined;
  let report: CompatReport;
  try {
    const [before, after] = comparable(await readSurface(file), {
      surface: surfaceOf(manifest, schemas),
      namesOnly: false,
    });
    report = checkCompatibility(before, after);
  } catch (error) {
    throw new ExecutaBuildError(
      "INVALID_OPTIONS",
      `cannot compare with ${file}: ${(error as Error).message}`,
      {
        step: "compat",
        file,
        cause: error,
      },
    );
  }
  if (!report.verdict.ok) throw breakingError(report, file);
  return report;
}

function breakingError(report: CompatReport, file: string): ExecutaBuildError {
  const { verdict } = report;
  const breaking = report.changes.filter((change) => change.kind === "breaking");
  const lines = breaking.map((change) => `  - ${change.summary} (${change.path})`);
  return new ExecutaBuildError(
    "BREAKING_CHANGE",
    `${breaking.length} change(s) break callers of ${verdict.from} (${file}), and version ${verdict.to} ` +
      `is not ${verdict.minimum} or later:\n${lines.join("\n")}\n` +
      `Fix: set the version to ${verdict.minimum} (a major release for them), or keep the old tools and ` +
      "parameters beside the new ones.",
    { step: "compat", file, changes: breaking },
  );
}

/** The project's `executa.surface.json`, where a release records its surface. */
export function releasedSurfaceFile(options: SurfaceOptions): string {
  return join(resolve(options.projectDir ?? process.cwd()), SURFACE_FILE);
}

/** Writes the built surface to `file` (the project's `executa.surface.json` for a release); returns `file`. */
export async function writeSurface(
  manifest: Manifest,
  file: string,
  schemas: Partial<ToolSchemas> = {},
): Promise<string> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(surfaceOf(manifest, schemas), null, 2)}\n`);
  return file;
}

/**
 * The plugin's version has one source: `package.json` `version` or the manifest's (from
 * the `@Plugin` option). Throws `VERSION_MISMATCH` naming both when both are given and differ.
 */
export function checkOneVersion(manifest: Manifest, projectDir: string | undefined): void {
  const file = join(resolve(projectDir ?? process.cwd()), "package.json");
  const version = packageVersionOf(file);
  if (version === undefined || version === manifest.version) return;
  throw new ExecutaBuildError(
    "VERSION_MISMATCH",
    `two versions: package.json says ${version}, the plugin's manifest (@Plugin({ version })) says ${manifest.version}.\n` +
      "Fix: keep one: remove `version` from @Plugin (the manifest then takes package.json's), or make them equal.",
    { step: "source", file },
  );
}
