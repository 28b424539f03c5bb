import { spawn } from "node:child_process";

/** Output of a finished helper command. */
export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved as they arrived, ANSI colors removed. */
  output: string;
}

/** Runs a helper command to completion, capturing its output (never inheriting stdio). */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString("utf8");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI color codes
      resolve({ code, signal, output: output.replace(/\u001b\[[0-9;]*m/g, "") });
    });
  });
}
