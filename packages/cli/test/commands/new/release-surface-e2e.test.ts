import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffold } from "../../../src/commands/new/index.js";
import { binOf, linkDependencies } from "./link-dependencies.js";
import { cleanEnv, git, run, stepOf, stepRunner } from "./workflow-step.js";

/*
 * The tool-surface steps of the workflow `executa new` writes, run here on a generated
 * project with a git history of two real releases (tags v0.1.0 and v0.2.0, each recorded
 * with `executa build --release` as its README says): the tag job's release notes list
 * what changed since the previous tag, and the pull-request step compares the surface
 * the build records, output schemas included. Only the bundle is built, no binaries.
 */

const workspaceRoot = fileURLToPath(new URL("../../../../../", import.meta.url));
const NAME = "surface-history";
const WORKFLOW = ".github/workflows/release.yml";
const TIMEOUT_MS = 300_000;

let base: string;
let project: string;
const file = (path: string) => join(project, path);

const CLI = binOf(join(workspaceRoot, "packages", "cli"), "executa");
const inProject = (...args: string[]) => git(project, ...args);

/** Runs the built `executa` in the project; throws with its output when it fails. */
async function executa(...args: string[]): Promise<string> {
  const result = await run(process.execPath, [CLI, ...args], {
    cwd: project,
    env: cleanEnv(),
    timeoutMs: 180_000,
  });
  if (result.code !== 0) throw new Error(`executa ${args.join(" ")} failed:\n${result.output}`);
  return result.output;
}

/** Sets package.json's version, records the surface as a release does, commits and tags. */
async function release(version: string): Promise<void> {
  const pkg = JSON.parse(readFileSync(file("package.json"), "utf8"));
  writeFileSync(file("package.json"), `${JSON.stringify({ ...pkg, version }, null, 2)}\n`);
  await executa("build", "--no-binary", "--release", "--out-dir", join(base, `build-${version}`));
  await inProject("add", "-A");
  await inProject("commit", "-q", "-m", `Release ${version}`);
  await inProject("tag", `v${version}`);
}

/** The plugin class's source with `text` added as its last member. */
function addMember(text: string): void {
  const source = readFileSync(file("src/plugin.ts"), "utf8");
  const end = source.lastIndexOf("\n}");
  writeFileSync(file("src/plugin.ts"), `${source.slice(0, end)}\n${text}${source.slice(end)}`);
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), "executa-release-surface-"));
  project = join(base, NAME);
  scaffold({ name: NAME, dir: project, workspace: false });
  linkDependencies(project, workspaceRoot);
  await inProject("init", "-q", "-b", "main");
  await release("0.1.0");
  addMember(
    [
      "  /** Shouts a text. */",
      "  @Tool()",
      "  shout(/** What to shout. */ text: string) {",
      "    return { shouted: text.toUpperCase() };",
      "  }",
    ].join("\n"),
  );
  await release("0.2.0");
}, TIMEOUT_MS);
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("the release job's notes, for the push of v0.2.0", () => {
  it(
    "list the changes since v0.1.0, read from that tag's executa.surface.json",
    async () => {
      const runner = stepRunner(project, workspaceRoot, base);
      const step = stepOf(file(WORKFLOW), "release", "Write the release notes");
      try {
        const result = await runner.run(step, { GITHUB_REF_NAME: "v0.2.0" });
        expect(result.code, result.output).toBe(0);
        // In the working directory, where the job's artifact upload and `gh release create
        // --notes-file release-notes.md` take it from.
        const notes = readFileSync(file("release-notes.md"), "utf8");
        expect(notes).toContain(`## Tool surface: ${NAME} 0.2.0 (since 0.1.0)`);
        expect(notes).toContain("Compatible: callers of 0.1.0 keep working.");
        expect(notes).toContain("- tool `shout` added (`tools[shout]`)");
        expect(notes).not.toContain("No change");
        expect(readFileSync(runner.summary, "utf8")).toContain(notes);
      } finally {
        rmSync(file("release-notes.md"), { force: true });
      }
    },
    TIMEOUT_MS,
  );

  it("checks out the whole history, tags included, for the previous release's surface", () => {
    const workflow = readFileSync(file(WORKFLOW), "utf8");
    const releaseJob = workflow.slice(workflow.indexOf("\n  release:"));
    expect(releaseJob).toMatch(
      /uses: actions\/checkout@[0-9a-f]{40} # v[\d.]+\n\s+with:\n(?:\s+.+\n)*?\s+fetch-depth: 0\b/,
    );
  });

  it("compare the first release with an empty surface: every tool is new", async () => {
    const first = join(base, "first");
    await git(base, "clone", "-q", `file://${project}`, first);
    await git(first, "-c", "advice.detachedHead=false", "checkout", "-q", "v0.1.0");
    const result = await run(
      process.execPath,
      [CLI, "compat", "--previous-release", "executa.surface.json"],
      {
        cwd: first,
        env: cleanEnv(),
        timeoutMs: 60_000,
      },
    );
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain(`## Tool surface: ${NAME} 0.1.0 (since 0.0.0)`);
    expect(result.output).toContain("- tool `greet` added");
    expect(result.output).toContain("- tool `count_words` added");
  }, 60_000);

  it("say so when the history is shallow, instead of calling the release the first", async () => {
    const shallow = join(base, "shallow");
    await git(base, "clone", "-q", "--depth", "1", `file://${project}`, shallow);
    const result = await run(
      process.execPath,
      [CLI, "compat", "--previous-release", file("executa.surface.json")],
      {
        cwd: shallow,
        env: cleanEnv(),
        timeoutMs: 60_000,
      },
    );
    expect(result.code).toBe(2);
    expect(result.output).toContain("the git history is shallow");
  }, 60_000);
});

describe("the check job's compatibility step, on a pull request after v0.2.0", () => {
  it(
    "reports no change for the released surface",
    async () => {
      const runner = stepRunner(project, workspaceRoot, base);
      const result = await runner.run(stepOf(file(WORKFLOW), "check", "Compare the tool surface"));
      expect(result.code, result.output).toBe(0);
      expect(readFileSync(runner.summary, "utf8")).toContain(`## Tool surface: ${NAME} 0.2.0 (since 0.2.0)`);
    },
    TIMEOUT_MS,
  );

  it(
    "fails a removed output field at the same version, naming it",
    async () => {
      const source = readFileSync(file("src/plugin.ts"), "utf8");
      writeFileSync(file("src/plugin.ts"), source.replace("return { shouted:", "return { loud:"));
      try {
        const runner = stepRunner(project, workspaceRoot, base);
        const result = await runner.run(stepOf(file(WORKFLOW), "check", "Compare the tool surface"));
        expect(result.code).toBe(1);
        const report = readFileSync(runner.summary, "utf8");
        expect(report).toContain(
          "- output field `shouted` removed (`tools[shout].output_schema.properties[shouted]`)",
        );
        expect(report).toContain("breaking changes need version 0.3.0 or later (this is 0.2.0)");
      } finally {
        writeFileSync(file("src/plugin.ts"), source);
      }
    },
    TIMEOUT_MS,
  );
});
