import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ECHO_PLUGIN } from "../helpers/spawn-fixture.js";

/** Runs the fixture with `args`, stdin left open (a server would wait on it), until it exits. */
function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [ECHO_PLUGIN, ...args], { stdio: "pipe" });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

describe("a plugin binary asked for --help or --version answers and exits instead of serving", () => {
  it.each([["--help"], ["-h"]])("%s prints the usage, flags and tools, exit 0", async (flag) => {
    const { code, stdout, stderr } = await run([flag]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^echo-fixture 1\.0\.0: Fixture plugin for core's process tests\./);
    expect(stdout).toContain("--mcp-http [HOST:]PORT");
    expect(stdout).toContain("EXECUTA_MCP_HTTP_TOKEN");
    expect(stdout).toMatch(/\n {2}echo +Echo the arguments\.\n/);
    expect(stderr).toBe("");
  });

  it.each([["--version"], ["-V"]])("%s prints the name and version, exit 0", async (flag) => {
    const { code, stdout } = await run([flag]);
    expect(code).toBe(0);
    expect(stdout).toBe("echo-fixture 1.0.0\n");
  });
});
