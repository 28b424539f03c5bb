import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { CommandLine } from "./driver/subject-process.js";

/** What a subject is for in the comparison. */
export type SubjectRole = "sdk" | "baseline" | "floor";

/** One program the bench measures. */
export interface Subject {
  /** Stable key used in the JSON results. */
  id: string;
  /** Human name used in tables and the chart. */
  label: string;
  role: SubjectRole;
  line: CommandLine;
  /** Whether it speaks the protocol (the floor only starts and exits). */
  serves: boolean;
  /** Measured in the validation figure only (a subject that exists for its DTO tools). */
  validationOnly?: boolean;
}

/** Where the bench's own files and the repository are. */
export interface BenchPaths {
  benchDir: string;
  repoRoot: string;
}

/** The paths, found from this module's location (src/ in tests, dist/ when built). */
export function benchPaths(): BenchPaths {
  const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  return { benchDir, repoRoot: resolve(benchDir, "..", "..") };
}

/** A build of the toolbox with Bun (`bun build --compile`) that `build:subjects` makes. */
export interface BunToolboxBuild {
  id: string;
  label: string;
  /** Its output folder under `subjects/dist/`. */
  dir: string;
  /** Compiled with `--bytecode`. */
  bytecode: boolean;
}

/** The toolbox compiled by Bun, without and with `--bytecode`, each into its own folder. */
export const BUN_TOOLBOX_BUILDS: readonly BunToolboxBuild[] = [
  { id: "toolbox-bun", label: "toolbox (Bun executable)", dir: "toolbox-bun", bytecode: false },
  {
    id: "toolbox-bun-bytecode",
    label: "toolbox (Bun + bytecode)",
    dir: "toolbox-bun-bytecode",
    bytecode: true,
  },
];

/** The executable of a Bun toolbox build (what `buildPlugin` writes for this machine). */
export function bunToolboxBinary(paths: BenchPaths, build: BunToolboxBuild): string {
  return join(paths.benchDir, "subjects", "dist", build.dir, executableName("toolbox"));
}

function executableName(name: string): string {
  return process.platform === "win32" ? `${name}.exe` : name;
}

/** A subject the bench wanted to measure but could not, and why. */
export interface SkippedSubject {
  id: string;
  label: string;
  reason: string;
}

/**
 * The subjects of a run: the baseline, the `node -e 0` floor, the plugin written
 * directly on core, and — when `apps/toolbox/dist` has them — the toolbox bundle run by
 * node and the toolbox single executable; and, when built (`build:subjects`), the
 * toolbox compiled by Bun (with and without bytecode) and the decorated DTO plugin
 * (validation figure only).
 */
export function discoverSubjects(paths: BenchPaths = benchPaths()): {
  subjects: Subject[];
  skipped: SkippedSubject[];
} {
  const node = process.execPath;
  const subjects: Subject[] = [];
  const skipped: SkippedSubject[] = [];
  const toolboxDist = join(paths.repoRoot, "apps", "toolbox", "dist");
  const toolboxBinary = join(toolboxDist, executableName("toolbox"));
  const toolboxBundle = join(toolboxDist, "toolbox.cjs");

  subjects.push({
    id: "baseline",
    label: "baseline (hand-written)",
    role: "baseline",
    line: { command: node, args: [join(paths.benchDir, "baseline", "plugin.cjs")] },
    serves: true,
  });
  if (existsSync(toolboxBinary)) {
    subjects.push({
      id: "toolbox-sea",
      label: "toolbox (single executable)",
      role: "sdk",
      line: { command: toolboxBinary, args: [] },
      serves: true,
    });
  } else {
    skipped.push({
      id: "toolbox-sea",
      label: "toolbox (single executable)",
      reason: `${toolboxBinary} not built`,
    });
  }
  for (const build of BUN_TOOLBOX_BUILDS) {
    const binary = bunToolboxBinary(paths, build);
    if (existsSync(binary)) {
      subjects.push({
        id: build.id,
        label: build.label,
        role: "sdk",
        line: { command: binary, args: [] },
        serves: true,
      });
    } else {
      skipped.push({
        id: build.id,
        label: build.label,
        reason: `${binary} not built (pnpm --filter @executa/bench build:subjects)`,
      });
    }
  }
  if (existsSync(toolboxBundle)) {
    subjects.push({
      id: "toolbox-node",
      label: "node toolbox.cjs",
      role: "sdk",
      line: { command: node, args: [toolboxBundle] },
      serves: true,
    });
  } else {
    skipped.push({ id: "toolbox-node", label: "node toolbox.cjs", reason: `${toolboxBundle} not built` });
  }
  const coreDist = join(paths.repoRoot, "packages", "core", "dist", "index.js");
  if (existsSync(coreDist)) {
    subjects.push({
      id: "core-plugin",
      label: "plugin on @executa/core",
      role: "sdk",
      line: { command: node, args: [join(paths.benchDir, "subjects", "core-plugin.mjs")] },
      serves: true,
    });
  } else {
    skipped.push({
      id: "core-plugin",
      label: "plugin on @executa/core",
      reason: `${coreDist} not built (pnpm --filter @executa/core build)`,
    });
  }
  const dtoBundle = join(paths.benchDir, "subjects", "dist", "dto-plugin.cjs");
  if (existsSync(dtoBundle)) {
    subjects.push({
      id: "dto-plugin",
      label: "decorated DTO plugin",
      role: "sdk",
      line: { command: node, args: [dtoBundle] },
      serves: true,
      validationOnly: true,
    });
  } else {
    skipped.push({
      id: "dto-plugin",
      label: "decorated DTO plugin",
      reason: `${dtoBundle} not built (pnpm --filter @executa/bench build:subjects)`,
    });
  }
  subjects.push({
    id: "floor",
    label: "node -e 0 (floor)",
    role: "floor",
    line: { command: node, args: ["-e", "0"] },
    serves: false,
  });
  return { subjects, skipped };
}
