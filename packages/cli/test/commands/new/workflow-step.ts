import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { binOf } from "./link-dependencies.js";

/** A step of a GitHub Actions job, as far as these tests read it. */
export interface Step {
  name?: string;
  if?: string;
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

/** How a process ended, with stdout and stderr together. */
export interface Run {
  code: number | null;
  output: string;
}

/** Runs `command` to completion, collecting stdout and stderr together. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} took over ${options.timeoutMs} ms:\n${output}`));
    }, options.timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** This process's environment without vitest's, as a runner's shell would have it. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
  for (const key of Object.keys(env)) if (key.startsWith("VITEST") || key === "NODE_OPTIONS") delete env[key];
  delete env.NODE_ENV;
  return env;
}

/** Runs git in `cwd` as a committer with no signing set up; resolves with its output, throws with it on failure. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const identity = ["-c", "user.name=Release Test", "-c", "user.email=release@test.invalid"];
  const result = await run("git", [...identity, "-c", "commit.gpgsign=false", ...args], {
    cwd,
    env: cleanEnv(),
    timeoutMs: 60_000,
  });
  if (result.code !== 0) throw new Error(`git ${args.join(" ")} failed:\n${result.output}`);
  return result.output;
}

/** The step of `job` in the workflow file whose name starts with `name`. */
export function stepOf(workflowFile: string, job: string, name: string): Step {
  const workflow = parse(readFileSync(workflowFile, "utf8")) as { jobs: Record<string, { steps: Step[] }> };
  const step = workflow.jobs[job]?.steps.find((candidate) => candidate.name?.startsWith(name));
  if (!step?.run) throw new Error(`${workflowFile} has no run step "${name}…" in job ${job}`);
  return step;
}

/**
 * A runner for `run:` steps in `project`: bash as the runner calls it (`-eo pipefail`),
 * with `pnpm exec executa` being this workspace's built CLI, `RUNNER_TEMP` a fresh folder
 * and `GITHUB_STEP_SUMMARY` a file in it.
 */
export function stepRunner(project: string, workspaceRoot: string, base: string) {
  const temp = mkdtempSync(join(base, "runner-"));
  const binDir = join(temp, "bin");
  const executa = binOf(join(workspaceRoot, "packages", "cli"), "executa");
  mkdirSync(binDir);
  writeFileSync(
    join(binDir, "pnpm"),
    `#!/usr/bin/env bash\n[ "$1" = exec ] && [ "$2" = executa ] || exit 127\nshift 2\nexec "${process.execPath}" "${executa}" "$@"\n`,
  );
  chmodSync(join(binDir, "pnpm"), 0o755);
  const summary = join(temp, "summary.md");
  writeFileSync(summary, "");
  return {
    temp,
    summary,
    /** Runs the step's script; `env` adds to the runner's environment. */
    run(step: Step, env: NodeJS.ProcessEnv = {}): Promise<Run> {
      const script = join(temp, `step-${Math.random().toString(36).slice(2)}.sh`);
      writeFileSync(script, step.run!);
      return run("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
        cwd: project,
        env: {
          ...cleanEnv(),
          PATH: [binDir, dirname(process.execPath), process.env.PATH].join(":"),
          CI: "true",
          GITHUB_STEP_SUMMARY: summary,
          RUNNER_TEMP: temp,
          ...env,
        },
        timeoutMs: 180_000,
      });
    },
  };
}
