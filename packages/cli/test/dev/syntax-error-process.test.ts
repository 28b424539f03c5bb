import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, fixture, requireBuiltCli, runCli, runProcess } from "../helpers/cli.js";

// A TypeScript entry with a syntax error (an unclosed call on line 11, column 39), run by
// a real `executa dev`: the compiler's message names the author's file, line and column,
// and the code frame shows the author's lines, without the source facts the build adds.

beforeAll(requireBuiltCli);

/** A decorated plugin whose line 11 leaves a call unclosed (kept here: no linter may parse it). */
const BROKEN_TEXT = [
  "// A decorated plugin with a syntax error on line 11: a call left unclosed.",
  'import { Plugin, serve, Tool } from "@executa/decorators";',
  "",
  "/** Greets people. */",
  '@Plugin({ name: "syntax-error", version: "0.1.0" })',
  "class Greeter {",
  "  /** Greets someone by name. */",
  "  @Tool()",
  "  greet(/** Who to greet. */ name: string) {",
  '    const greeting = "Hello, " + name;',
  "    return { greeting: greeting.trim( };",
  "  }",
  "}",
  "",
  "serve(Greeter);",
].join("\n");

const dir = mkdtempSync(join(tmpdir(), "executa-dev-syntax-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const BROKEN = join(dir, "main.ts");
writeFileSync(BROKEN, `${BROKEN_TEXT}\n`);
const AT = `${BROKEN}:11:39`;

const dev = (args: string[]) => runCli(["dev", ...args, "--data-dir", join(dir, "data")], { cwd: dir });

/** What every report of the error must hold, and what none may. */
function expectTheAuthorsError(text: string, at: string): void {
  expect(text).toContain("SyntaxError");
  expect(text).toContain("Expression expected");
  expect(text).toContain(`at ${at}`);
  expect(text).not.toContain("clone3");
  expect(text).not.toContain("executa.source");
}

describe("executa dev on an entry with a syntax error", () => {
  it("--describe names the file, line and column with the compiler's message", async () => {
    const run = await dev([BROKEN, "--describe"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("did not start");
    expectTheAuthorsError(run.stderr, AT);
  });

  it("--invoke names the file, line and column with the compiler's message", async () => {
    const run = await dev([BROKEN, "--invoke", "greet", "--args", '{"name":"Ada"}']);
    expect(run.code).toBe(1);
    expectTheAuthorsError(run.stderr, AT);
  });

  it("the code frame shows the author's lines as written, each at its own number", async () => {
    const register = fileURLToPath(import.meta.resolve("@executa/bundler/register"));
    const run = await runProcess(process.execPath, ["--import", register, BROKEN], { cwd: dir });
    expect(run.code).toBe(1);
    expectTheAuthorsError(run.stderr, AT);
    const lines = BROKEN_TEXT.split("\n");
    for (const number of [10, 11, 12, 13]) {
      expect(run.stderr).toContain(` ${number} | ${lines[number - 1]}\n`);
    }
  });

  it("--watch reports the error when a change breaks a running entry", async () => {
    // A working entry of its own, with @executa/core linked for it to import.
    const project = join(dir, "watched");
    mkdirSync(join(project, "node_modules", "@executa"), { recursive: true });
    symlinkSync(
      fileURLToPath(new URL("../../../core", import.meta.url)),
      join(project, "node_modules", "@executa", "core"),
    );
    cpSync(fixture("ts-plugin/main.ts"), join(project, "main.ts"));
    const child = spawn(process.execPath, [CLI, "dev", "main.ts", "--watch", "--describe"], {
      cwd: project,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    try {
      await expect.poll(() => output, { timeout: 30_000, interval: 50 }).toContain("watching");
      // The watch arms asynchronously: write the broken text again until the restart shows.
      const broken = `${BROKEN_TEXT}\n`;
      let lastWrite = 0;
      await expect
        .poll(
          () => {
            if (Date.now() - lastWrite > 2_000) {
              writeFileSync(join(project, "main.ts"), broken);
              lastWrite = Date.now();
            }
            return output;
          },
          { timeout: 30_000, interval: 50 },
        )
        .toContain("Expression expected");
      await expect
        .poll(() => output, { timeout: 10_000, interval: 50 })
        .toContain(`at ${project}/main.ts:11:39`);
      expectTheAuthorsError(output, join(project, "main.ts:11:39"));
    } finally {
      child.kill("SIGKILL");
    }
  }, 90_000);
});
