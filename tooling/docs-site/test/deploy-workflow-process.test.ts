import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const WORKFLOW = ".github/workflows/docs.yml";
const text = readFileSync(join(repo, WORKFLOW), "utf8");
const scratch = mkdtempSync(join(tmpdir(), "docs-workflow-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// actionlint 1.7.7 compiled to WebAssembly (a dev dependency of the workspace), so it runs offline.
const actionlintDir = join(repo, "node_modules", "@tktco", "node-actionlint");
const { bin } = JSON.parse(readFileSync(join(actionlintDir, "package.json"), "utf8")) as {
  bin: string | Record<string, string>;
};
const actionlint = join(actionlintDir, typeof bin === "string" ? bin : Object.values(bin)[0]!);

interface Run {
  code: number;
  output: string;
}

async function node(args: string[], cwd: string): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, args, {
      cwd,
      env: { ...process.env, NO_COLOR: "1" },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** actionlint on one workflow text, written into a folder of its own. */
function lint(workflow: string): Promise<Run> {
  const dir = mkdtempSync(join(scratch, "lint-"));
  mkdirSync(join(dir, ".github", "workflows"), { recursive: true });
  writeFileSync(join(dir, WORKFLOW), workflow);
  return node([actionlint, WORKFLOW], dir);
}

/** A GitHub Actions expression as the workflow writes it. */
const gha = (inner: string) => `\${{ ${inner} }}`;

interface Step {
  readonly uses?: string;
  readonly run?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, string>;
}

const jobs = (parse(text) as { jobs: Record<string, { steps: Step[]; permissions: Record<string, string> }> })
  .jobs;

describe("the documentation site's deploy workflow", () => {
  it("passes actionlint without a finding", async () => {
    const result = await lint(text);
    expect(result.output).toContain("All workflow files passed lint checks");
    expect(result.code, result.output).toBe(0);
  }, 60_000);

  it("is linted for real: actionlint reports a mistake put into it", async () => {
    const result = await lint(text.replace("pages: write", "page: write"));
    expect(result.code).toBe(1);
    expect(result.output).toContain('unknown permission scope "page"');
  }, 60_000);

  it("builds the site under the homepage's path, after checking the homepage is where Pages serves it", () => {
    const steps = jobs.build!.steps;
    const at = (match: (step: Step) => boolean) => steps.findIndex(match);
    const check = at((step) => step.run?.includes("tooling/docs-site/site-address.mjs --expect") === true);
    const build = at((step) => step.run === "pnpm docs:site");
    const upload = at((step) => step.uses?.startsWith("actions/upload-pages-artifact@") === true);
    expect(check).toBeGreaterThan(0);
    expect(steps[check]!.env?.PAGES_URL).toBe(gha("steps.pages.outputs.base_url"));
    expect(build).toBeGreaterThan(check);
    expect(steps[build]!.env?.EXECUTA_DOCS_FOR_PAGES).toBe("true");
    expect(upload).toBeGreaterThan(build);
    expect(steps[upload]!.with?.path).toBe("docs/.vitepress/dist");
    expect(jobs.build!.permissions).toEqual({ contents: "read" });
    expect(jobs.deploy!.permissions).toEqual({ pages: "write", "id-token": "write" });
    expect(jobs.deploy!.steps.map((step) => step.uses?.split("@")[0])).toEqual(["actions/deploy-pages"]);
  });

  it("pins every action by a full commit SHA, with its version in a comment", () => {
    const uses = [...text.matchAll(/^\s*(?:- )?uses:\s*(.+)$/gm)].map((match) => match[1]!.trim());
    expect(uses.length).toBe(6);
    for (const use of uses) expect(use).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
  });

  it("stops the deployment when GitHub serves the site at another address than the packages' homepage", async () => {
    const script = join(repo, "tooling/docs-site/site-address.mjs");
    const { homepage } = JSON.parse((await node([script], repo)).output) as { homepage: string };
    expect(await node([script, "--expect", homepage.replace(/\/$/, "")], repo)).toEqual({
      code: 0,
      output: "",
    });
    const elsewhere = await node([script, "--expect", "https://someone.github.io/fork"], repo);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.output).toContain(
      `the site is deployed to https://someone.github.io/fork/, but the packages' homepage is ${homepage}`,
    );
  });
});
