import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  detectWorkspace,
  executaVersion,
  findWorkspaceRoot,
  isWorkspaceMember,
  pluginNames,
  registerNewCommand,
  scaffold,
  THIRD_PARTY_VERSIONS,
  workspacePatterns,
} from "../../../src/commands/new/index.js";

const workspaceRoot = fileURLToPath(new URL("../../../../../", import.meta.url));
const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "executa-new-"));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));

describe("scaffold", () => {
  it("writes the whole project with every placeholder filled", () => {
    const dir = join(tempDir(), "hello-world");
    const result = scaffold({ name: "hello-world", dir, workspace: false });
    expect(result.files).toEqual([
      ".github/actionlint.yaml",
      ".github/workflows/release.yml",
      ".gitignore",
      "README.md",
      "executa.surface.json",
      "package.json",
      "src/main.ts",
      "src/plugin.ts",
      "test/plugin.test.ts",
      "tsconfig.json",
      "tsup.config.ts",
      "vitest.config.ts",
    ]);
    // GitHub Actions expressions (${{ github.ref_name }}) are the workflow's own, not placeholders.
    const unfilled = (file: string) => readFileSync(join(dir, file), "utf8").replace(/\$\{\{[^}]*\}\}/g, "");
    for (const file of result.files) expect(unfilled(file)).not.toMatch(/\{\{|\}\}/);
    const plugin = readFileSync(join(dir, "src/plugin.ts"), "utf8");
    expect(plugin).toContain('@Plugin({\n  name: "hello-world",\n})');
    expect(readJson(join(dir, "executa.surface.json"))).toEqual({ version: "0.0.0", tools: [] });
    expect(plugin).toContain("export class HelloWorld {");
    expect(readFileSync(join(dir, "src/main.ts"), "utf8")).toContain("serve(HelloWorld);");
    expect(readFileSync(join(dir, "tsup.config.ts"), "utf8")).toContain('executa({ entry: "src/main.ts" })');
    expect(readJson(join(dir, "tsconfig.json")).compilerOptions).toMatchObject({
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    });
  });

  it("depends on the published versions outside a workspace", () => {
    const dir = join(tempDir(), "p");
    scaffold({ name: "p", dir, workspace: false, executaVersion: "1.4.2" });
    const pkg = readJson(join(dir, "package.json"));
    expect(pkg.name).toBe("p");
    expect(pkg.dependencies).toEqual({ "@executa/decorators": "^1.4.2", "class-validator": "^0.15.1" });
    expect(pkg.devDependencies["@executa/testing"]).toBe("^1.4.2");
    expect(pkg.devDependencies["@executa/bundler"]).toBe("^1.4.2");
    expect(pkg.devDependencies["@executa/cli"]).toBe("^1.4.2");
    expect(pkg.scripts).toMatchObject({
      build: "tsc --noEmit && tsup",
      test: "tsc --noEmit && vitest run",
      typecheck: "tsc --noEmit",
      dev: "executa dev src/main.ts",
    });
    expect(readFileSync(join(dir, "README.md"), "utf8")).toContain("published `^1.4.2` packages");
  });

  it("uses workspace:* inside the workspace, and the CLI's own version by default", () => {
    const dir = join(tempDir(), "p");
    const result = scaffold({ name: "p", dir, workspace: true });
    const pkg = readJson(join(dir, "package.json"));
    for (const name of ["@executa/decorators"]) expect(pkg.dependencies[name]).toBe("workspace:*");
    for (const name of ["@executa/bundler", "@executa/cli", "@executa/testing"]) {
      expect(pkg.devDependencies[name]).toBe("workspace:*");
    }
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    expect(readme).toContain("`workspace:*`");
    expect(readme).toContain(`"^${executaVersion()}"`);
    // A temp folder is in no workspace: the user is told what to change.
    expect(result.warnings.join()).toMatch(/not inside a pnpm workspace/);
  });

  it("pins the third-party versions the workspace itself is built with", () => {
    const root = readJson(join(workspaceRoot, "package.json"));
    const decorators = readJson(join(workspaceRoot, "packages/decorators/package.json"));
    const bundler = readJson(join(workspaceRoot, "packages/bundler/package.json"));
    const workspace = {
      ...root.devDependencies,
      ...decorators.dependencies,
      bun: bundler.devDependencies.bun,
    } as Record<string, string>;
    for (const [name, range] of Object.entries(THIRD_PARTY_VERSIONS))
      expect([name, range]).toEqual([name, workspace[name]]);
    expect(executaVersion()).toBe(readJson(join(workspaceRoot, "packages/cli/package.json")).version);
  });

  it("refuses a bad name or a folder that is not empty, writing nothing", () => {
    const base = tempDir();
    for (const bad of ["Hello", "1abc", "a--b", "has space", "", "-x", "a/b"]) {
      expect(() => scaffold({ name: bad, dir: join(base, "x"), workspace: false })).toThrow(
        /invalid plugin name/,
      );
    }
    const full = join(base, "full");
    mkdirSync(full);
    writeFileSync(join(full, "keep.txt"), "mine");
    expect(() => scaffold({ name: "ok", dir: full, workspace: false })).toThrow(/is not empty/);
    expect(readFileSync(join(full, "keep.txt"), "utf8")).toBe("mine");
    writeFileSync(join(base, "file"), "");
    expect(() => scaffold({ name: "ok", dir: join(base, "file"), workspace: false })).toThrow(/not a folder/);
  });

  it("accepts an empty existing folder", () => {
    const dir = join(tempDir(), "empty");
    mkdirSync(dir);
    expect(scaffold({ name: "ok", dir, workspace: false }).files).toContain("package.json");
  });
});

describe("plugin names", () => {
  it("derives the class name and title", () => {
    expect(pluginNames("hello-world")).toEqual({
      name: "hello-world",
      className: "HelloWorld",
      title: "Hello World",
    });
    expect(pluginNames("my_tool2")).toEqual({ name: "my_tool2", className: "MyTool2", title: "My Tool2" });
  });
});

describe("workspace detection", () => {
  it("finds the root above a folder, and nothing in a temp folder", () => {
    expect(findWorkspaceRoot(join(workspaceRoot, "packages/cli/src"))).toBe(workspaceRoot.replace(/\/$/, ""));
    expect(detectWorkspace(join(workspaceRoot, "apps/not-yet"))).toBe(true);
    expect(detectWorkspace(tempDir())).toBe(false);
  });

  it("reads the packages globs and checks membership", () => {
    expect(
      workspacePatterns("packages:\n  - packages/*\n  - 'apps/**'\n  - \"!apps/skip\"\nother: 1\n"),
    ).toEqual(["packages/*", "apps/**", "!apps/skip"]);
    const root = tempDir();
    writeFileSync(
      join(root, "pnpm-workspace.yaml"),
      "packages:\n  - packages/*\n  - apps/**\n  - '!apps/skip'\n",
    );
    expect(isWorkspaceMember(root, join(root, "packages/a"))).toBe(true);
    expect(isWorkspaceMember(root, join(root, "packages/a/b"))).toBe(false);
    expect(isWorkspaceMember(root, join(root, "apps/a/b"))).toBe(true);
    expect(isWorkspaceMember(root, join(root, "apps/skip"))).toBe(false);
    expect(isWorkspaceMember(root, join(root, "other/a"))).toBe(false);
    expect(isWorkspaceMember(root, root)).toBe(false);
  });

  it("reads flow lists, braces, ? and comments as pnpm does", () => {
    expect(workspacePatterns("packages: [apps/*, 'tools/{a,b}'] # flow list\n")).toEqual([
      "apps/*",
      "tools/{a,b}",
    ]);
    expect(workspacePatterns("packages:\n  # none yet\n")).toEqual([]);
    expect(workspacePatterns("packages: [unclosed\n")).toEqual([]);
    const root = tempDir();
    writeFileSync(join(root, "pnpm-workspace.yaml"), "packages: ['tools/{a,b}', 'lib?', './x/']\n");
    expect(isWorkspaceMember(root, join(root, "tools/a"))).toBe(true);
    expect(isWorkspaceMember(root, join(root, "tools/c"))).toBe(false);
    expect(isWorkspaceMember(root, join(root, "lib1"))).toBe(true);
    expect(isWorkspaceMember(root, join(root, "lib12"))).toBe(false);
    expect(isWorkspaceMember(root, join(root, "x"))).toBe(true);
  });

  it("warns when a workspace project is outside the workspace's globs", () => {
    const root = tempDir();
    writeFileSync(join(root, "pnpm-workspace.yaml"), "packages:\n  - apps/*\n");
    expect(scaffold({ name: "in", dir: join(root, "apps/in"), workspace: true }).warnings).toEqual([]);
    expect(
      scaffold({ name: "out", dir: join(root, "elsewhere/out"), workspace: true }).warnings.join(),
    ).toMatch(/not matched by the packages globs/);
  });
});

describe("executa new", () => {
  async function run(args: string[]): Promise<string> {
    const program = new Command().exitOverride();
    registerNewCommand(program);
    let out = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await program.parseAsync(["node", "executa", "new", ...args]);
    return out;
  }

  it("scaffolds into --dir and prints the next steps", async () => {
    const dir = join(tempDir(), "weather");
    const out = await run(["weather", "--dir", dir]);
    expect(out).toMatch(/Created the weather plugin/);
    expect(out).toMatch(/pnpm test/);
    // A temp folder is in no workspace: published versions.
    expect(readJson(join(dir, "package.json")).dependencies["@executa/decorators"]).toBe(
      `^${executaVersion()}`,
    );
  });

  it("follows --workspace and --no-workspace over detection", async () => {
    const dir = join(tempDir(), "forced");
    await run(["forced", "--dir", dir, "--workspace"]);
    expect(readJson(join(dir, "package.json")).dependencies["@executa/decorators"]).toBe("workspace:*");

    const root = tempDir();
    writeFileSync(join(root, "pnpm-workspace.yaml"), "packages:\n  - apps/*\n");
    await run(["detected", "--dir", join(root, "apps/detected")]);
    expect(readJson(join(root, "apps/detected/package.json")).dependencies["@executa/decorators"]).toBe(
      "workspace:*",
    );
    await run(["published", "--dir", join(root, "apps/published"), "--no-workspace"]);
    expect(readJson(join(root, "apps/published/package.json")).dependencies["@executa/decorators"]).toMatch(
      /^\^/,
    );
  });

  it("rejects a bad name with a clear error", async () => {
    await expect(run(["Bad Name", "--dir", join(tempDir(), "x")])).rejects.toThrow(/invalid plugin name/);
  });
});
