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

/** A build of the toolbox (Node single executable or Bun) that `build:subjects` makes. */
export interface BunToolboxBuild {
  id: string;
  label: string;
  /** Its output folder under `subjects/dist/`. */
  dir: string;
  /** The runtime it carries. */
  runtime: "node" | "bun";
  /** Compiled with `--bytecode` (Bun). */
  bytecode: boolean;
}

/**
 * The toolbox as a Node single executable, and compiled by Bun without and with
 * `--bytecode` (the default build), each into its own folder: whatever the default
 * runtime is, every runtime is measured.
 */
export const BUN_TOOLBOX_BUILDS: readonly BunToolboxBuild[] = [
  {
    id: "toolbox-sea",
    label: "toolbox (single executable)",
    dir: "toolbox-sea",
    runtime: "node",
    bytecode: false,
  },
  {
    id: "toolbox-bun",
    label: "toolbox (Bun executable)",
    dir: "toolbox-bun",
    runtime: "bun",
    bytecode: false,
  },
  {
    id: "toolbox-bun-bytecode",
    label: "toolbox (Bun + bytecode)",
    dir: "toolbox-bun-bytecode",
    runtime: "bun",
    bytecode: true,
  },
];

/** The executable of a toolbox build (what `buildExecutables` writes for this machine). */
export function bunToolboxBinary(paths: BenchPaths, build: BunToolboxBuild): string {
  return join(paths.benchDir, "subjects", "dist", build.dir, executableName("toolbox"));
}

/** The file name of an executable on this platform (`.exe` on Windows). */
export function executableName(name: string): string {
  return process.platform === "win32" ? `${name}.exe` : name;
}

/** A subject the bench wanted to measure but could not, and why. */
export interface SkippedSubject {
  id: string;
  label: string;
  reason: string;
}

/** A subject measured only when the file it runs (or needs) is built. */
interface BuiltSubject {
  subject: Subject;
  /** The file whose presence means the subject is built. */
  needs: string;
  /** How to build it, said when it is missing. */
  buildWith?: string;
}

const BUILD_SUBJECTS = "pnpm --filter @executa/bench build:subjects";

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
  const subjects: Subject[] = [baselineSubject(paths)];
  const skipped: SkippedSubject[] = [];
  for (const { subject, needs, buildWith } of builtSubjects(paths)) {
    if (existsSync(needs)) {
      subjects.push(subject);
    } else {
      const how = buildWith === undefined ? "" : ` (${buildWith})`;
      skipped.push({ id: subject.id, label: subject.label, reason: `${needs} not built${how}` });
    }
  }
  subjects.push(floorSubject());
  return { subjects, skipped };
}

function baselineSubject(paths: BenchPaths): Subject {
  return {
    id: "baseline",
    label: "baseline (hand-written)",
    role: "baseline",
    line: { command: process.execPath, args: [join(paths.benchDir, "baseline", "plugin.cjs")] },
    serves: true,
  };
}

/** Process start and exit only: what any subject's cold start costs at least. */
function floorSubject(): Subject {
  return {
    id: "floor",
    label: "node -e 0 (floor)",
    role: "floor",
    line: { command: process.execPath, args: ["-e", "0"] },
    serves: false,
  };
}

/** The SDK subjects in table order, each with the file it needs. */
function builtSubjects(paths: BenchPaths): BuiltSubject[] {
  const node = process.execPath;
  const toolboxDist = join(paths.repoRoot, "apps", "toolbox", "dist");
  const toolboxBundle = join(toolboxDist, "toolbox.cjs");
  const dtoBundle = join(paths.benchDir, "subjects", "dist", "dto-plugin.cjs");
  const sdk = (id: string, label: string, line: CommandLine): Subject => ({
    id,
    label,
    role: "sdk",
    line,
    serves: true,
  });
  return [
    ...BUN_TOOLBOX_BUILDS.map((build) => {
      const binary = bunToolboxBinary(paths, build);
      return {
        subject: sdk(build.id, build.label, { command: binary, args: [] }),
        needs: binary,
        buildWith: BUILD_SUBJECTS,
      };
    }),
    {
      subject: sdk("toolbox-node", "node toolbox.cjs", { command: node, args: [toolboxBundle] }),
      needs: toolboxBundle,
    },
    {
      subject: sdk("core-plugin", "plugin on @executa/core", {
        command: node,
        args: [join(paths.benchDir, "subjects", "core-plugin.mjs")],
      }),
      needs: join(paths.repoRoot, "packages", "core", "dist", "index.js"),
      buildWith: "pnpm --filter @executa/core build",
    },
    {
      subject: {
        ...sdk("dto-plugin", "decorated DTO plugin", { command: node, args: [dtoBundle] }),
        validationOnly: true,
      },
      needs: dtoBundle,
      buildWith: BUILD_SUBJECTS,
    },
  ];
}
