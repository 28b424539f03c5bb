import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { sourceCommand } from "../../src/source/describe-source.js";
import { fixture } from "../helpers/fixtures.js";

function runFromSource(entry: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { command, args } = sourceCommand(entry);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("@executa/bundler/register (dist/register.js: run `pnpm build` first)", () => {
  it("runs TypeScript from source with decorator metadata and TypeScript-aware resolution", async () => {
    const run = await runFromSource(fixture("register/metadata-probe.ts"));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      paramtypes: { convert: ["String", "Number", "Boolean", "Celsius", "Array"] },
      label: "from label.ts",
    });
  });

  it("is started with node --import and an absolute entry", () => {
    const { command, args } = sourceCommand("src/main.ts", ["--enable-source-maps"]);
    expect(command).toBe(process.execPath);
    expect(args[0]).toBe("--enable-source-maps");
    expect(args[1]).toBe("--import");
    expect(args[2]).toMatch(/^file:.*\/dist\/register\.js$/);
    expect(args[3]).toBe(`${process.cwd()}/src/main.ts`);
  });
});
