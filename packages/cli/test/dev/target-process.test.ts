import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { devDataDir } from "../../src/dev/data-dir.js";
import { resolveTarget } from "../../src/dev/target.js";

const dir = mkdtempSync(join(tmpdir(), "executa-target-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "src"));
mkdirSync(join(dir, "bin"));
writeFileSync(join(dir, "src", "main.ts"), "");
writeFileSync(join(dir, "plugin.mjs"), "");
writeFileSync(join(dir, "bin", "tool"), "");

describe("resolveTarget", () => {
  it("runs a TypeScript entry with node and the bundler's register hook", () => {
    const target = resolveTarget(["src/main.ts"], dir);
    expect(target.kind).toBe("typescript");
    expect(target.command).toBe(process.execPath);
    expect(target.args).toEqual([
      "--import",
      expect.stringMatching(/^file:.*register\.js$/),
      join(dir, "src", "main.ts"),
    ]);
    expect(target.watchRoots).toEqual([join(dir, "src")]);
  });

  it("defaults to src/main.ts and says what is missing otherwise", () => {
    expect(resolveTarget([], dir).label).toBe(join("src", "main.ts"));
    expect(() => resolveTarget([], join(dir, "bin"))).toThrow(/src\/main\.ts, src\/index\.ts/);
    expect(() => resolveTarget(["nope.ts"], dir)).toThrow(/entry nope\.ts does not exist/);
  });

  it("runs a JavaScript entry with this node", () => {
    expect(resolveTarget(["plugin.mjs"], dir)).toMatchObject({
      kind: "javascript",
      command: process.execPath,
      args: [join(dir, "plugin.mjs")],
      watchRoots: [dir],
    });
  });

  it("runs anything else as a command, watching the folder of the file it names", () => {
    expect(resolveTarget(["./bin/tool", "--flag"], dir)).toMatchObject({
      kind: "command",
      command: "./bin/tool",
      args: ["--flag"],
      watchRoots: [join(dir, "bin")],
    });
    expect(resolveTarget(["python3", "plugin.mjs"], dir).watchRoots).toEqual([dir]);
    expect(resolveTarget(["some-binary"], dir).watchRoots).toEqual([dir]);
  });
});

describe("devDataDir", () => {
  it("is .executa/dev/<profile>, for plain profile names only", () => {
    expect(devDataDir(dir)).toBe(join(dir, ".executa", "dev", "default"));
    expect(devDataDir(dir, "demo-2")).toBe(join(dir, ".executa", "dev", "demo-2"));
    expect(() => devDataDir(dir, "../x")).toThrow(/profile/);
    expect(() => devDataDir(dir, "")).toThrow(/profile/);
  });
});
