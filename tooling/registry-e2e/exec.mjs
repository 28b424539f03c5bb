import { spawn } from "node:child_process";

/** Keeps the last `limit` characters of a growing text. */
function appendTail(text, chunk, limit) {
  const next = text + chunk;
  return next.length > limit ? next.slice(next.length - limit) : next;
}

/**
 * Runs a command to its end and collects its output (stdout and stderr interleaved, last
 * 200 kB). Rejects with the command, exit status and the output's tail when it fails or
 * outlives `timeoutMs`; `expectFailure` inverts that (a command that must fail).
 *
 * @returns `{ code, output }`
 */
export function run(command, args, { cwd, env, timeoutMs = 300_000, expectFailure = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const collect = (chunk) => {
      output = appendTail(output, chunk.toString(), 200_000);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const shown = `${command} ${args.join(" ")}`;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${shown} took over ${timeoutMs / 1000} s; its output ended with:\n${tail(output)}`));
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${shown} in ${cwd}: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const failed = code !== 0;
      if (failed === expectFailure) resolve({ code, output });
      else {
        const status = signal ? `was killed by ${signal}` : `exited with ${code}`;
        const expected = expectFailure ? " (it was expected to fail)" : "";
        reject(new Error(`${shown} ${status}${expected} in ${cwd}; its output ended with:\n${tail(output)}`));
      }
    });
  });
}

/** The last lines of an output, for error messages. */
export function tail(output, lines = 40) {
  return output.trimEnd().split("\n").slice(-lines).join("\n");
}
