import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { previousRelease } from "../../src/compat/previous-release.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function repo(): { dir: string; git: (...args: string[]) => string; release: (version: string) => void } {
  const dir = mkdtempSync(join(tmpdir(), "executa-previous-release-"));
  folders.push(dir);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
      cwd: dir,
      encoding: "utf8",
    });
  git("init", "-q");
  const release = (version: string) => {
    writeFileSync(join(dir, "executa.surface.json"), JSON.stringify({ version, tools: [] }));
    git("add", "executa.surface.json");
    git("commit", "-q", "-m", `release ${version}`);
    git("tag", `v${version}`);
  };
  return { dir, git, release };
}

describe("previousRelease", () => {
  it("reads the surface at the highest version tag before HEAD, leaving HEAD's own tag out", async () => {
    const { dir, release } = repo();
    release("0.9.0");
    release("0.10.0");
    release("0.11.0");
    const previous = await previousRelease(dir);
    expect(previous.tag).toBe("v0.10.0");
    expect(previous.surface.surface.version).toBe("0.10.0");
  });

  it("compares a first release with no tools at 0.0.0", async () => {
    const { dir, release } = repo();
    release("1.0.0");
    const previous = await previousRelease(dir);
    expect(previous.tag).toBeUndefined();
    expect(previous.surface.surface).toEqual({ version: "0.0.0", tools: [] });
  });

  it("refuses a tag without a surface, naming the fix", async () => {
    const { dir, git, release } = repo();
    writeFileSync(join(dir, "README.md"), "x");
    git("add", "README.md");
    git("commit", "-q", "-m", "first");
    git("tag", "v0.1.0");
    release("0.2.0");
    await expect(previousRelease(dir)).rejects.toThrow(/v0\.1\.0 has no executa\.surface\.json.*--release/);
  });
});
