import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runConformance, spawnPlugin } from "@executa/host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffold } from "../../../src/commands/new/index.js";
import { binOf, linkDependencies } from "./link-dependencies.js";

/*
 * The real proof that `executa new` output works: scaffold a project into a temp folder
 * OUTSIDE the workspace (a member inside it would need a `pnpm install` that rewrites the
 * shared lockfile), give it a node_modules of symlinks to this workspace's installed
 * packages (see linkDependencies), then run the project's own tools from its own folder:
 * its vitest suite, tsc on its tsconfig, and its tsup build with the executa() preset, and
 * finally drive the built artifact over the protocol. The @executa/* packages are used
 * through their built dist, as a published install would: `pnpm test` builds first.
 */

const workspaceRoot = fileURLToPath(new URL("../../../../../", import.meta.url));
// Long enough that a one-line @Plugin({ ... }) would overflow the formatter's line width.
const NAME = "scaffold-check-with-a-longer-name";
// The longest name executa new accepts: its files must pass the format check too.
const LONGEST = `p${"-x".repeat(31)}a`;
let base: string;
let project: string;
let linked: Map<string, string>;

beforeAll(() => {
  const missing = ["core", "decorators", "host", "testing", "bundler"].filter(
    (pkg) => !existsSync(join(workspaceRoot, "packages", pkg, "dist", "index.js")),
  );
  if (missing.length > 0) {
    throw new Error(`build the workspace first (pnpm build): no dist for ${missing.join(", ")}`);
  }
  // An apps/ folder under the repository's biome.json, as a new app of the toolkit would be.
  base = mkdtempSync(join(tmpdir(), "executa-new-project-"));
  copyFileSync(join(workspaceRoot, "biome.json"), join(base, "biome.json"));
  project = join(base, "apps", NAME);
  scaffold({ name: NAME, dir: project, workspace: true });
  scaffold({ name: LONGEST, dir: join(base, "apps", LONGEST), workspace: true });
  linked = linkDependencies(project, workspaceRoot);
});
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  output: string;
}

/** Runs node with a tool's bin in `cwd` (the project), without the parent vitest's environment. */
function runTool(bin: string, args: string[], timeoutMs: number, cwd = project): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", CI: "1" };
  for (const key of Object.keys(env)) if (key.startsWith("VITEST") || key === "NODE_OPTIONS") delete env[key];
  delete env.NODE_ENV;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${bin} ${args.join(" ")} took over ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const tool = (name: string, bin?: string) => binOf(linked.get(name)!, bin);

describe("a project from executa new", () => {
  it("passes the toolkit's format and lint check as a new app", async () => {
    const biome = binOf(join(workspaceRoot, "node_modules", "@biomejs", "biome"), "biome");
    // No git repository in the temp folder: the VCS integration (ignore files) is off.
    const run = await runTool(biome, ["check", "--vcs-enabled=false", "apps"], 60_000, base);
    // The new app's own files were checked (some tens of them), not none.
    expect(run.output).toMatch(/Checked [1-9][0-9] files/);
    expect(run.code, run.output).toBe(0);
  }, 70_000);

  it("passes its own test suite", async () => {
    const run = await runTool(tool("vitest"), ["run"], 60_000);
    expect(run.output).toMatch(/5 passed/);
    expect(run.code, run.output).toBe(0);
  }, 70_000);

  it("type-checks", async () => {
    const run = await runTool(tool("typescript", "tsc"), ["--noEmit", "-p", "tsconfig.json"], 60_000);
    expect(run.code, run.output).toBe(0);
  }, 70_000);

  it("builds with the executa() preset into artifacts that serve the plugin", async () => {
    const run = await runTool(tool("tsup", "tsup"), [], 90_000);
    expect(run.code, run.output).toBe(0);
    const manifest = JSON.parse(readFileSync(join(project, "dist", "manifest.json"), "utf8"));
    expect(manifest.name).toBe(NAME);
    // One version: @Plugin names none, so the manifest takes package.json's.
    expect(manifest.version).toBe(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).version);
    expect(manifest.tools.map((t: { name: string }) => t.name)).toEqual(["greet", "count_words"]);

    for (const [command, args] of [
      [process.execPath, [join(project, "dist", `${NAME}.cjs`)]],
      [join(project, "dist", NAME), []],
    ] as const) {
      const plugin = await spawnPlugin({ command, args: [...args] });
      try {
        const { manifest: described } = await plugin.start();
        expect(described.tools).toEqual(manifest.tools);
        expect(await plugin.invoke("greet", { name: "Ada" })).toMatchObject({
          success: true,
          data: { greeting: "Hello, Ada!" },
        });
      } finally {
        await plugin.stop({ graceMs: 2000 });
      }
    }
  }, 120_000);

  it("passes every conformance check of executa check, without a warning", async () => {
    const binary = join(project, "dist", NAME);
    expect(existsSync(binary), "the build test makes the binary").toBe(true);
    const report = await runConformance(binary, [], { cwd: project });
    const notPassing = report.checks.filter((check) => check.status !== "PASS");
    expect(notPassing.map((check) => `${check.status} ${check.id}: ${check.reason}`)).toEqual([]);
    expect(report.summary.pass).toBeGreaterThan(10);
  }, 60_000);
});
