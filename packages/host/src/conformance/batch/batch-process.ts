import { spawn } from "node:child_process";
import { open, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** How to start the plugin for one batch run. */
export interface BatchCommand {
  command: string;
  args: readonly string[];
  cwd?: string;
  env: NodeJS.ProcessEnv;
  /** A folder of the caller's for the conversation's files. */
  workDir: string;
  /** The run is killed after this long. */
  timeoutMs: number;
}

/** What one batch run left behind. */
export interface BatchOutcome {
  /** Every stdout line, in order. */
  stdout: string[];
  stderr: string;
  /** `undefined` when the run was killed at its time limit. */
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  /** From spawn to exit (or to the kill). */
  ms: number;
}

let runs = 0;

/**
 * Runs the plugin with stdin read from a file holding `input` and stdout and stderr
 * written to files: no pipe is involved (Wine cannot hand a pipe to a Node single
 * executable as its stdout). The plugin sees end of input after the last line.
 */
export async function runBatch(command: BatchCommand, input: string): Promise<BatchOutcome> {
  const base = join(command.workDir, `batch-${process.pid}-${++runs}`);
  const files = { in: `${base}.in`, out: `${base}.out`, err: `${base}.err` };
  await writeFile(files.in, input);
  const stdin = await open(files.in, "r");
  const stdout = await open(files.out, "w");
  const stderr = await open(files.err, "w");
  const started = performance.now();
  try {
    const exit = await new Promise<BatchOutcome["exit"]>((resolve, reject) => {
      const child = spawn(command.command, [...command.args], {
        cwd: command.cwd,
        env: command.env,
        stdio: [stdin.fd, stdout.fd, stderr.fd],
        windowsHide: true,
      });
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        resolve(undefined);
      }, command.timeoutMs);
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal });
      });
    });
    const ms = Math.round(performance.now() - started);
    const text = await readFile(files.out, "utf8");
    const lines = text.split(/\r?\n/);
    if (lines.at(-1) === "") lines.pop();
    return { stdout: lines, stderr: await readFile(files.err, "utf8"), exit, ms };
  } finally {
    await Promise.all([stdin.close(), stdout.close(), stderr.close()]);
    await Promise.all(Object.values(files).map((file) => rm(file, { force: true })));
  }
}
