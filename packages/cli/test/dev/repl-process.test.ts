import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requirePrerequisite, skipWithout } from "../../../../tooling/test-support/src/prerequisite.js";
import { CLI, fixture, requireBuiltCli, runCli } from "../helpers/cli.js";

beforeAll(requireBuiltCli);

const cwd = mkdtempSync(join(tmpdir(), "executa-repl-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
const good = fixture("good-plugin.mjs");

/** The transcript part after the prompt line of `command`, up to the next prompt. */
function answerTo(transcript: string, command: string): string {
  const start = transcript.indexOf(`good-plugin> ${command}\n`);
  if (start === -1) throw new Error(`no prompt line for ${command} in:\n${transcript}`);
  const rest = transcript.slice(start + `good-plugin> ${command}\n`.length);
  const next = rest.indexOf("good-plugin> ");
  return next === -1 ? rest : rest.slice(0, next);
}

describe("executa dev REPL over piped stdin", () => {
  it("lists tools, invokes with key=value and JSON, shows outcomes, timings and logs", async () => {
    const input = [
      'greet name="Ann Lee" times=2',
      'greet {"name": "Bob", "loud": true}',
      "fail why=broken",
      "greet",
      "greet times=x",
      "nosuch a=1",
      ".tools",
      ".health",
      "secret",
      ".credential GOOD_API_KEY=sk-1",
      "secret",
      ".bogus",
      ".help",
      ".exit",
      "greet name=never",
    ].join("\n");
    const run = await runCli(["dev", good], { cwd, input: `${input}\n` });
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout;
    // Banner: plugin line and the tools with their parameters.
    expect(out).toMatch(/^good-plugin 1\.2\.3 · protocol 2\.0 · 5 tools\n/);
    expect(out).toContain("greet(name: string, times?: integer = 1, loud?: boolean)");
    expect(out).toContain("remember(key: string, value: object)  timeout 10 s");

    const first = answerTo(out, 'greet name="Ann Lee" times=2');
    expect(first).toMatch(/✔ success in \d+ ms \(plugin: \d+ ms\)/);
    expect(first).toContain('"greeting": "hello Ann Lee hello Ann Lee"');
    expect(first).toContain("[log] [good-plugin:greet] info: greeting Ann Lee");

    expect(answerTo(out, 'greet {"name": "Bob", "loud": true}')).toContain('"greeting": "HELLO BOB"');
    expect(answerTo(out, "fail why=broken")).toMatch(/✖ failure in \d+ ms \(plugin: \d+ ms\): broken/);
    const error = answerTo(out, "greet");
    expect(error).toMatch(/✖ error -32602 in \d+ ms: name must be a string/);
    expect(error).toContain('"expected": "string"');
    expect(answerTo(out, "greet times=x")).toContain('bad arguments: times: expected an integer, got "x"');
    expect(answerTo(out, "nosuch a=1")).toContain('unknown tool "nosuch"');
    expect(answerTo(out, ".tools")).toContain("secret()");
    expect(answerTo(out, ".health")).toMatch(/^ready \(in \d+ ms\)/);
    expect(out.split("good-plugin> secret\n")[1]).toContain('"present": false');
    expect(answerTo(out, ".credential GOOD_API_KEY=sk-1")).toContain("set credential GOOD_API_KEY");
    expect(out.split("good-plugin> secret\n")[2]).toContain('"present": true');
    expect(answerTo(out, ".bogus")).toContain("unknown command .bogus");
    expect(answerTo(out, ".help")).toContain(".credential NAME=VALUE");
    // .exit stops: lines after it are not run.
    expect(out).not.toContain("greet name=never");
  });

  it("restarts the plugin on .restart and keeps the profile's storage", async () => {
    const input = ['remember key=a value={"v": [1, 2]}', ".restart", "recall key=a", ".exit"].join("\n");
    const run = await runCli(["dev", good, "--profile", "restart"], { cwd, input: `${input}\n` });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/restarted in \d+ ms: good-plugin 1\.2\.3/);
    const recalled = run.stdout.split("good-plugin> recall key=a\n")[1] ?? "";
    expect(JSON.parse(recalled.slice(recalled.indexOf("{"), recalled.indexOf("\n}") + 2))).toEqual({
      exists: true,
      value: { v: [1, 2] },
    });
  });

  it("ends cleanly at the end of input and says when the plugin died", async () => {
    const run = await runCli(["dev", "--", process.execPath, fixture("exits-after-first-reply.mjs")], {
      cwd,
      input: "echo text=x\n",
    });
    // That plugin dies after its first reply: the handshake fails with a clear message.
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/did not start: .*exited with code 0/);
  });
});

const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;

describe.skipIf(skipWithout(hasScript))("executa dev REPL in a pseudo-terminal (script -q)", () => {
  beforeAll(() =>
    requirePrerequisite(hasScript, "util-linux `script` is not on PATH: install it (Debian: bsdutils)"),
  );

  it("prompts, invokes and exits on .exit", async () => {
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} dev ${JSON.stringify(good)}`;
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", TERM: "xterm" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    const waitFor = async (text: string, from = 0) => {
      const until = Date.now() + 20_000;
      while (!out.slice(from).includes(text)) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${text}; got:\n${out}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return out.length;
    };
    await waitFor("good-plugin> ");
    const mark = out.length;
    child.stdin.write("greet name=Tty\r");
    await waitFor('"greeting": "hello Tty"', mark);
    const afterInvoke = await waitFor("good-plugin> ", out.indexOf('"greeting": "hello Tty"'));
    child.stdin.write(".exit\r");
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    expect(code).toBe(0);
    expect(out).toMatch(/✔ success in \d+ ms/);
    expect(afterInvoke).toBeGreaterThan(mark);
    child.stdin.destroy();
  });
});
