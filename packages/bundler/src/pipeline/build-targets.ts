import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Manifest } from "@executa/core";
import { binaryFileName } from "../emit/binary-manifest.js";
import { ExecutaBuildError, isBuildError } from "../errors/build-error.js";
import { asBuildFailure, targetUnavailable } from "../errors/target-unavailable.js";
import { signMachOAdHoc } from "../macho/adhoc-sign.js";
import { hostPlatform } from "../platform/platform-key.js";
import {
  hostTarget,
  type KnownPlatform,
  type TargetPlatform,
  targetPlatform,
} from "../platform/platforms.js";
import { formatBytes, formatMs } from "../report/format.js";
import type { Reporter } from "../report/reporter.js";
import type { PreparedTarget, RuntimeOptions } from "../runtime/runtime.js";
import { type NamedRuntime, type RuntimeChoice, type RuntimeName, runtimeFor } from "../runtime/runtimes.js";
import { checkInBatch } from "../verify/batch-check.js";
import { checkConformance } from "../verify/conformance.js";
import { type Runner, runnerFor } from "../verify/run-here.js";
import { checkStructure, type StructuralReference } from "../verify/structural-check.js";
import { artifactBuildError, verifyArtifact } from "../verify/verify-artifact.js";

/** Under emulation a binary starts ~10-20× slower (a Bun arm64 binary answered describe in 2.4 s under QEMU). */
const EMULATED_TIMEOUT_MS = 30_000;

/** Options of {@link buildTargets}. */
export interface TargetBuildOptions {
  /** The verified bundle every binary embeds. */
  bundle: string;
  name: string;
  outDir: string;
  /** The manifest from source, which every binary that runs here must answer. */
  manifest: Manifest;
  targets: readonly TargetPlatform[];
  runtime?: RuntimeChoice;
  runtimeOptions: RuntimeOptions;
  /** Packages with native addons (shipped in `lib/`): they were built for this machine only. */
  nativeAddons: readonly string[];
  describeTimeoutMs: number;
  run: { cwd?: string; env?: NodeJS.ProcessEnv };
  report: Reporter;
  /** A path as the report shows it. */
  shown: (path: string) => string;
  /** Files this build writes, removed again if it fails. */
  outputs: Set<string>;
}

/** One platform's binary, built and verified. */
export interface TargetBuild {
  platform: KnownPlatform;
  runtime: RuntimeName;
  /** The runtime's version inside the binary, e.g. `v20.20.2` or `1.4.5`. */
  runtimeVersion: string;
  path: string;
  size: number;
  /** For the report: `Node v20.20.2, code cache`. */
  detail: string;
  /** Run natively, run under an emulator, or checked from its bytes only. */
  verification: "native" | "emulated" | "structural";
  /** The emulator that ran it. */
  via?: string;
  /**
   * The conformance checks that need a live pipe, not run because its runner gives the
   * binary files instead (a Windows binary under Wine, in batch mode).
   */
  needPipe?: string[];
  /** Why it was not run, when it was only checked. */
  notRun?: string;
  /** From spawn to the `describe` answer, when it ran. */
  describeMs?: number;
  /** The checks it passed. */
  checks: string[];
}

interface Plan {
  target: TargetPlatform;
  runtime: NamedRuntime;
  prepared: PreparedTarget;
}

/**
 * Builds a binary for every target with its runtime, signs the macOS ones, and verifies
 * each: run here when this machine can run it (natively, under QEMU, or a Windows x86_64
 * one under Wine in batch mode) with the manifest check and the conformance checks; every binary is also checked from its bytes
 * (header, signature, embedded code identical to a binary of the same runtime that ran;
 * when none of a runtime's targets runs here, a build of it for this machine is run
 * instead). Every toolchain is found before anything is built.
 */
export async function buildTargets(options: TargetBuildOptions): Promise<TargetBuild[]> {
  const plans = await prepareAll(options);
  const workDir = await mkdtemp(join(tmpdir(), "executa-targets-"));
  try {
    const builds: TargetBuild[] = [];
    for (const plan of plans) builds.push(await buildOne(plan, options, workDir));
    const references = new Map<RuntimeName, StructuralReference>();
    for (const build of builds) {
      const reference = await verifyByRunning(build, options);
      if (reference && !references.has(build.runtime)) references.set(build.runtime, reference);
    }
    for (const build of builds) {
      const reference = references.get(build.runtime) ?? (await proxyReference(build, options, workDir));
      references.set(build.runtime, reference);
      build.checks.push(...(await checkStructureOf(build, reference, options)));
      if (build.verification === "structural") {
        options.report.step(
          "verify",
          `${build.platform}: checked, not run (${build.notRun}) · ${build.checks.join(" · ")}`,
        );
      }
    }
    return builds;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** Every target's toolchain, found at once; all that are missing reported together. */
/** What building `target` with `runtime` takes; a runtime's own failure comes out as the build error naming it. */
async function prepare(
  runtime: NamedRuntime,
  target: TargetPlatform,
  options: RuntimeOptions,
): Promise<PreparedTarget> {
  return runtime.prepare(target, options).catch((error: unknown) => {
    throw asBuildFailure(error, target.key, runtime.name);
  });
}

async function prepareAll(options: TargetBuildOptions): Promise<Plan[]> {
  const here = hostPlatform();
  const settled = await Promise.allSettled(
    options.targets.map(async (target): Promise<Plan> => {
      const runtime = runtimeFor(target.key, options.runtime);
      if (options.nativeAddons.length > 0 && target.key !== here) {
        throw targetUnavailable(
          target.key,
          runtime.name,
          `${options.nativeAddons.join(", ")} ship${options.nativeAddons.length === 1 ? "s" : ""} a native addon ` +
            `built for this ${here} machine, which cannot load on ${target.key}. Build ${target.key} on a ` +
            `${target.key} machine, or leave it out of targets.`,
        );
      }
      return { target, runtime, prepared: await prepare(runtime, target, options.runtimeOptions) };
    }),
  );
  const failures = settled.flatMap((outcome) =>
    outcome.status === "rejected" ? [outcome.reason as unknown] : [],
  );
  if (failures.length > 0) throw preparationFailure(failures);
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<Plan>).value);
}

/**
 * The targets that cannot be built, in one error. Its code is the failures' own when
 * they share one (`TARGET_UNAVAILABLE`, `DOWNLOAD_INTEGRITY`), else `TARGET_UNAVAILABLE`;
 * the first failure is the cause.
 */
function preparationFailure(failures: readonly unknown[]): ExecutaBuildError {
  const lines = failures.map((error) =>
    isBuildError(error, "TARGET_UNAVAILABLE")
      ? `  ${error.details.platform} (${error.details.runtime}): ${error.message.split("\n").join("\n    ")}`
      : `  ${error instanceof Error ? error.message : String(error)}`,
  );
  const codes = new Set(failures.map((error) => (isBuildError(error) ? error.code : "TARGET_UNAVAILABLE")));
  const code = codes.size === 1 ? [...codes][0]! : "TARGET_UNAVAILABLE";
  return new ExecutaBuildError(code, `cannot build every target:\n${lines.join("\n")}`, {
    step: "prepare",
    cause: failures[0],
  });
}

async function buildOne(plan: Plan, options: TargetBuildOptions, workDir: string): Promise<TargetBuild> {
  const { target, runtime, prepared } = plan;
  const native = target.key === hostPlatform();
  const fileName = binaryFileName(native ? options.name : `${options.name}-${target.key}`, target.key);
  const output = join(options.outDir, fileName);
  options.outputs.add(output);
  const scratch = join(workDir, target.key);
  await mkdir(scratch, { recursive: true });
  const step = `binary ${target.key}`;
  const built = await prepared
    .build({ bundle: options.bundle, output, workDir: scratch, nativeHere: native })
    .catch((error: Error) => {
      throw new ExecutaBuildError("BINARY_FAILED", `${runtime.name}: ${error.message}`, {
        step,
        cause: error,
      });
    });
  if (target.os === "darwin") {
    await signMachOAdHoc(output, { identifier: options.name }).catch((error: Error) => {
      throw new ExecutaBuildError("BINARY_FAILED", `signing ${options.shown(output)}: ${error.message}`, {
        step,
        cause: error,
      });
    });
  }
  options.report.step(
    "binary",
    `${options.shown(output)}  ${formatBytes(built.size)} (${target.key}, ${built.detail}${target.os === "darwin" ? ", ad-hoc signed" : ""})`,
  );
  for (const note of built.notes) options.report.note(note);
  return {
    platform: target.key,
    runtime: runtime.name,
    runtimeVersion: prepared.runtimeVersion,
    path: output,
    size: built.size,
    detail: built.detail,
    verification: "structural",
    checks: [],
  };
}

/** Runs the binary when this machine can; returns it as its runtime's reference when it ran. */
async function verifyByRunning(
  build: TargetBuild,
  options: TargetBuildOptions,
): Promise<StructuralReference | undefined> {
  const target = targetPlatform(build.platform);
  const lookup = await runnerFor(target, options.run.env, {
    runtime: build.runtime,
    cacheDir: options.runtimeOptions.cacheDir,
  });
  if (!lookup.runner) {
    build.notRun = lookup.why;
    return undefined;
  }
  const runner = lookup.runner;
  const outcome = await runAndCheck(build.path, runner, options, `verify ${build.platform}`);
  build.verification = runner.via === "native" ? "native" : "emulated";
  if (runner.via !== "native") build.via = runner.via;
  build.describeMs = outcome.describeMs;
  build.checks.push("describe = source manifest", ...outcome.checks);
  if (outcome.needPipe) build.needPipe = outcome.needPipe;
  const how =
    runner.via === "native"
      ? ""
      : ` under ${runner.via}${outcome.needPipe ? " in batch mode (stdin and stdout on files)" : ""}`;
  const describe = outcome.needPipe
    ? `describe ≤ ${formatMs(outcome.describeMs)} (the whole conversation)`
    : `describe ${formatMs(outcome.describeMs)}`;
  options.report.step("verify", `${build.platform}: ran${how} · ${describe} · ${outcome.checks.join(" · ")}`);
  if (outcome.needPipe) {
    options.report.step(
      "verify",
      `${build.platform}: not run (they need a live pipe): ${outcome.needPipe.join(" · ")}`,
    );
  }
  const runtime = runtimeFor(build.platform, build.runtime);
  return {
    runtime,
    code: await runtime.embeddedCode(build.path),
    label: `the ${build.platform} binary that ran here`,
  };
}

/** What running a binary showed (its manifest matched the source's): the checks it passed, and those a batch run could not do. */
interface RunOutcome {
  describeMs: number;
  checks: string[];
  needPipe?: string[];
}

async function runAndCheck(
  binary: string,
  runner: Runner,
  options: TargetBuildOptions,
  step: string,
): Promise<RunOutcome> {
  const emulated = runner.via !== "native";
  const timeoutMs = emulated ? EMULATED_TIMEOUT_MS : options.describeTimeoutMs;
  const label = `${options.shown(binary)}${emulated ? ` (under ${runner.via})` : ""}`;
  if (runner.stdio === "files") {
    const env = { ...(options.run.env ?? process.env), ...runner.env };
    const command = { ...runner.command(binary), cwd: options.run.cwd, env };
    const batch = await checkInBatch(command, options.manifest, { step, label, timeoutMs });
    return { describeMs: batch.describeMs, checks: batch.checks, needPipe: batch.notRun };
  }
  const command = { ...runner.command(binary), ...options.run };
  const described = await verifyArtifact(command, options.manifest, {
    step,
    label,
    timeoutMs,
    exitGraceMs: emulated ? EMULATED_TIMEOUT_MS : undefined,
  });
  try {
    const checks = await checkConformance(command, {
      timeoutMs,
      exitGraceMs: emulated ? EMULATED_TIMEOUT_MS : undefined,
    });
    return { describeMs: described.describeMs, checks };
  } catch (error) {
    throw artifactBuildError(step, label, error);
  }
}

/**
 * When none of a runtime's targets runs here, the same runtime builds the same bundle for
 * this machine in the work folder, and that binary is run: what cannot run here is then
 * checked to carry the code of one that did.
 */
async function proxyReference(
  build: TargetBuild,
  options: TargetBuildOptions,
  workDir: string,
): Promise<StructuralReference> {
  const host = hostTarget();
  const runtime = runtimeFor(build.platform, build.runtime);
  const step = `verify ${runtime.name}`;
  const scratch = join(workDir, `proxy-${runtime.name}`);
  await mkdir(scratch, { recursive: true });
  const output = join(scratch, binaryFileName(options.name, host.key));
  const prepared = await prepare(runtime, host, options.runtimeOptions).catch((error: Error) => {
    throw new ExecutaBuildError(
      isBuildError(error) ? error.code : "TARGET_UNAVAILABLE",
      `a ${host.key} build to run here: ${error.message}`,
      { step, cause: error },
    );
  });
  await prepared.build({ bundle: options.bundle, output, workDir: scratch, nativeHere: true });
  const lookup = await runnerFor(host, options.run.env);
  const outcome = await runAndCheck(output, lookup.runner!, options, step);
  options.report.step(
    "verify",
    `${runtime.name}: a ${host.key} build of the same bundle ran here · describe ${formatMs(outcome.describeMs)} · ${outcome.checks.join(" · ")}`,
  );
  return {
    runtime,
    code: await runtime.embeddedCode(output),
    label: `the ${runtime.name} build that ran here`,
  };
}

async function checkStructureOf(
  build: TargetBuild,
  reference: StructuralReference,
  options: TargetBuildOptions,
): Promise<string[]> {
  try {
    return await checkStructure(build.path, targetPlatform(build.platform), reference);
  } catch (error) {
    throw new ExecutaBuildError(
      "STRUCTURE_MISMATCH",
      `${options.shown(build.path)}: ${(error as Error).message}`,
      {
        step: `verify ${build.platform}`,
        cause: error,
      },
    );
  }
}
