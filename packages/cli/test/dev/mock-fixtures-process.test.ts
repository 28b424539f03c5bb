import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, requireBuiltCli, runCli } from "../helpers/cli.js";

beforeAll(requireBuiltCli);

const cwd = mkdtempSync(join(tmpdir(), "executa-dev-mock-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
const plugin = fixture("mock-studio.mjs");
const mock = fixture("mock-studio.jsonl");
const dev = (...args: string[]) => runCli(["dev", plugin, ...args], { cwd });

describe("executa dev --mock (built CLI)", () => {
  it("answers matching reverse calls from the fixtures", async () => {
    const run = await dev("--mock", mock, "--invoke", "poster", "--args", "prompt=A poster about Mars");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).data).toEqual({
      url: "https://mock.cdn/mars-poster.png",
      model: "mock-dalle-3",
    });
    const embed = await dev("--mock", mock, "--invoke", "embed", "--args", "text=hello");
    expect(embed.code, embed.stderr).toBe(0);
    expect(JSON.parse(embed.stdout).data).toEqual({ dimensions: 4, model: "anna-managed-v1" });
  });

  it("falls back to the local providers when no line matches, and without --mock", async () => {
    const venus = await dev("--mock", mock, "--invoke", "poster", "--args", "prompt=A poster about Venus");
    expect(venus.code, venus.stderr).toBe(0);
    const data = JSON.parse(venus.stdout).data;
    expect(data.model).toBe("local-stripes-v1");
    expect(data.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/images\//);
    const plain = await dev("--invoke", "embed", "--args", "text=hello");
    expect(plain.code, plain.stderr).toBe(0);
    expect(JSON.parse(plain.stdout).data).toEqual({ dimensions: 1536, model: "anna-managed-v1" });
  });

  it("refuses a bad fixture file, naming file and line", async () => {
    const bad = join(cwd, "bad.jsonl");
    writeFileSync(bad, '{"ns":"image","method":"generate","result":{}}\n{"ns":"image"}\n');
    const run = await dev("--mock", bad, "--describe");
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`${bad}:2: "method" must be a non-empty string`);
    expect(run.stdout).toBe("");
  });
});
