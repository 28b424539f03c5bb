import { spawn } from "node:child_process";
import { join } from "node:path";

const START_TIMEOUT_MS = 30_000;

/**
 * `executa docs` of the installed CLI: it prints its 127.0.0.1 address, serves a guide and
 * the API reference from the package (no network involved), and stops on SIGTERM.
 *
 * @param {string} project The scaffolded project, with @executa/cli installed.
 * @param {NodeJS.ProcessEnv} env The environment of the user's shell.
 * @returns {Promise<string>} What was served.
 */
export async function installedDocsServe(project, env) {
  const bin = join(project, "node_modules", "@executa", "cli", "bin", "executa.cjs");
  const child = spawn(process.execPath, [bin, "docs"], {
    cwd: project,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr.on("data", (chunk) => (output += chunk));
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`executa docs printed no address:\n${output}`)),
        START_TIMEOUT_MS,
      );
      child.stdout.on("data", (chunk) => {
        output += chunk;
        const match = /documentation: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once("exit", (code) => reject(new Error(`executa docs exited (${code}):\n${output}`)));
    });
    const pages = ["guide/getting-started", "api/index.html"];
    for (const page of pages) {
      const response = await fetch(new URL(page, url));
      if (response.status !== 200) throw new Error(`executa docs answered ${response.status} for ${page}`);
    }
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const code = await exited;
    if (code !== 0) throw new Error(`executa docs exited ${code} on SIGTERM:\n${output}`);
    return `${pages.join(" and ")} served at ${url}`;
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}
