import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { requireBuiltCli, runProcess } from "./helpers/cli.js";

// The error codes the READMEs promise, checked by running their documented commands through
// the `executa` bin a user runs (bin/executa.cjs). A command promises a code with a trailing
// comment in a ```sh block: `executa dev … --invoke tool --args …  # → -32009 (declined)`.

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = fileURLToPath(new URL("../bin/executa.cjs", import.meta.url));

interface DocumentedCommand {
  /** The README, relative to the repository root. */
  readme: string;
  /** Where the command runs: the README's folder. */
  cwd: string;
  /** The words after `executa`. */
  args: string[];
  code: number;
  line: string;
}

const PROMISE = /^(?:pnpm exec )?executa (dev .*?)\s+#\s*→\s*(-\d+)\b/;

/** Shell words of a documented command: blanks separate them, '…' and "…" quote. */
function shellWords(text: string): string[] {
  const words: string[] = [];
  const word = /(?:'([^']*)'|"([^"]*)"|([^\s'"]+))+/g;
  for (const match of text.matchAll(word)) {
    const parts = match[0].matchAll(/'([^']*)'|"([^"]*)"|([^\s'"]+)/g);
    words.push([...parts].map((part) => part[1] ?? part[2] ?? part[3]).join(""));
  }
  return words;
}

/** The `executa dev` lines of a README's sh blocks that promise an error code. */
function promisedIn(readme: string): DocumentedCommand[] {
  const found: DocumentedCommand[] = [];
  let inShell = false;
  for (const raw of readFileSync(readme, "utf8").split("\n")) {
    const line = raw.trim();
    if (line.startsWith("```")) {
      inShell = !inShell && /^```(?:sh|bash|shell)\b/.test(line);
      continue;
    }
    const match = inShell ? PROMISE.exec(line) : null;
    if (!match) continue;
    found.push({
      readme: relative(root, readme),
      cwd: dirname(readme),
      args: shellWords(match[1]!),
      code: Number(match[2]),
      line,
    });
  }
  return found;
}

function readmes(): string[] {
  const inFolders = ["apps", "packages"].flatMap((group) =>
    readdirSync(join(root, group), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(root, group, entry.name, "README.md")),
  );
  return [join(root, "README.md"), ...inFolders].filter((path) => existsSync(path));
}

/** The code a one-shot invoke answered: `data.code` of a failed result, else the error's. */
function answeredCode(stdout: string, stderr: string): number | undefined {
  if (stdout.trim().startsWith("{")) {
    const code = (JSON.parse(stdout) as { data?: { code?: unknown } }).data?.code;
    return typeof code === "number" ? code : undefined;
  }
  const error = /✖ error (-\d+)/.exec(stderr);
  return error ? Number(error[1]) : undefined;
}

const commands = readmes().flatMap(promisedIn);
const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe("the error codes the READMEs promise, through the executa bin", () => {
  it("the READMEs document the codes this test must see", () => {
    const promised = commands.map((command) => `${command.readme} ${command.code}`);
    expect(promised).toContain("apps/notes-search/README.md -32009");
    expect(promised).toContain("apps/storage/README.md -32025");
  });

  it.each(commands.map((command) => [`${command.readme}: ${command.line}`, command] as const))(
    "%s",
    async (_title, command) => {
      requireBuiltCli();
      // A fresh data folder: the answer must not depend on what earlier runs stored.
      const dataDir = mkdtempSync(join(tmpdir(), "executa-readme-"));
      dataDirs.push(dataDir);
      const end = command.args.indexOf("--");
      const args = [...command.args];
      args.splice(end === -1 ? args.length : end, 0, "--data-dir", dataDir);
      const run = await runProcess(process.execPath, [bin, ...args], { cwd: command.cwd, timeoutMs: 90_000 });
      expect(run.code, run.stderr).toBe(1);
      expect(answeredCode(run.stdout, run.stderr), run.stdout + run.stderr).toBe(command.code);
      expect(run.stderr).not.toMatch(/RpcError|Internal error/);
    },
    120_000,
  );
});
