import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { connect } from "node:net";
import { dirname, join } from "node:path";

/** The Bun CLI of the bundler's `bun` devDependency. */
export function bunCli(): string {
  const bin = join(dirname(createRequire(import.meta.url).resolve("bun/package.json")), "bin", "bun.exe");
  if (!existsSync(bin)) throw new Error(`no Bun at ${bin}: the bun package's install script did not run`);
  return bin;
}

/** True when something accepts TCP connections on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** A child with its stderr collected and its end awaited. */
export interface Watched {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Resolves once stderr (or stdout) contains `text`; rejects if the process ends first or after `timeoutMs`. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
}

/** Spawns `command` with real pipes and watches it. */
export function watch(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Watched {
  const child = spawn(command, args, { env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  let stdout = "";
  const changed = new Set<() => void>();
  const notify = () => {
    for (const listener of changed) listener();
  };
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    notify();
  });
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    notify();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => {
      resolve({ code, signal, at: performance.now() });
      notify();
    }),
  );
  return {
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    exited,
    waitFor(text, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (stderr.includes(text) || stdout.includes(text)) done(resolve);
          else if (child.exitCode !== null || child.signalCode !== null)
            done(() => reject(new Error(`exited before printing "${text}"; stderr: ${stderr}`)));
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`no "${text}" within ${timeoutMs} ms`))),
          timeoutMs,
        );
        const done = (then: () => void) => {
          clearTimeout(timer);
          changed.delete(check);
          then();
        };
        changed.add(check);
        check();
      });
    },
  };
}
