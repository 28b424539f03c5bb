import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI, fixture, requireBuiltCli } from "../helpers/cli.js";

beforeAll(requireBuiltCli);

// A self-contained plugin (the wire kit, no dependencies) whose version the test edits.
const dir = mkdtempSync(join(tmpdir(), "executa-watch-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
cpSync(fixture("lib"), join(dir, "lib"), { recursive: true });
const writePlugin = (version: string) =>
  writeFileSync(
    join(dir, "plugin.mjs"),
    `import { MANIFEST, serve } from "./lib/wire-kit.mjs";\nserve({ handlers: { describe: () => ({ ...MANIFEST, version: "${version}" }) } });\n`,
  );

let child: ChildProcess | undefined;
afterEach(() => {
  if (child?.exitCode === null) child.kill("SIGKILL");
});

function start(args: string[]) {
  const proc = spawn(process.execPath, [CLI, "dev", "plugin.mjs", "--watch", ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child = proc;
  const output = { text: "" };
  proc.stdout.setEncoding("utf8").on("data", (chunk: string) => (output.text += chunk));
  proc.stderr.setEncoding("utf8").on("data", (chunk: string) => (output.text += chunk));
  const waitFor = async (pattern: RegExp) => {
    const until = Date.now() + 20_000;
    while (!pattern.test(output.text)) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}; got:\n${output.text}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  // The recursive watch arms asynchronously, after the plugin is up: rather than sleep
  // "long enough", touch the source (every 2 s, well over the debounce) until `pattern` shows.
  const touchUntil = async (pattern: RegExp, touch: () => void) => {
    const until = Date.now() + 20_000;
    let touchedAt = 0;
    while (!pattern.test(output.text)) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}; got:\n${output.text}`);
      if (Date.now() - touchedAt >= 2_000) {
        touch();
        touchedAt = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const exited = new Promise<number | null>((resolve) => proc.once("close", resolve));
  return { proc, output, waitFor, touchUntil, exited };
}

describe("executa dev --watch (built CLI)", () => {
  it("restarts the plugin under the REPL when a source changes", async () => {
    writePlugin("1.0.0");
    const { proc, waitFor, touchUntil, exited, output } = start([]);
    await waitFor(/kit-plugin 1\.0\.0 · protocol 2\.0/);
    await touchUntil(/restarted in \d+ ms: kit-plugin 2\.0\.0/, () => writePlugin("2.0.0"));
    expect(output.text).toContain("(changed plugin.mjs)");
    proc.stdin!.end("echo text=hi\n.exit\n");
    expect(await exited).toBe(0);
    expect(output.text).toContain('"text": "hi"');
  });

  it("reruns --describe after each change until interrupted", async () => {
    writePlugin("1.0.0");
    const { proc, waitFor, touchUntil, exited } = start(["--describe"]);
    await waitFor(/"version": "1\.0\.0"/);
    await waitFor(/watching /);
    await touchUntil(/"version": "3\.0\.0"/, () => writePlugin("3.0.0"));
    proc.kill("SIGINT");
    expect(await exited).toBe(0);
  });
});
