import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ECHO_PLUGIN = fileURLToPath(new URL("../fixtures/echo-plugin.mjs", import.meta.url));

export interface Frame {
  jsonrpc?: string;
  id?: unknown;
  result?: Record<string, unknown> & { success?: boolean; data?: unknown; error?: unknown };
  error?: { code: number; message: string; data?: unknown };
  method?: string;
  params?: unknown;
  __file_transport?: string;
}

/** A fixture plugin running as a child process, with its stdout parsed into frames. */
export interface FixtureProcess {
  child: ChildProcessWithoutNullStreams;
  frames: Frame[];
  /** Every stdout line, JSON or not. */
  stdoutLines: string[];
  stderr: () => string;
  send: (frame: unknown) => void;
  reply: (id: unknown, timeoutMs?: number) => Promise<Frame>;
  call: (method: string, params?: unknown, timeoutMs?: number) => Promise<Frame>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

let nextId = 1;

export function spawnFixture(env: Record<string, string> = {}, script = ECHO_PLUGIN): FixtureProcess {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: "pipe" });
  const frames: Frame[] = [];
  const stdoutLines: string[] = [];
  let err = "";
  let pending = "";
  const waiters = new Set<() => void>();
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    let lf = pending.indexOf("\n");
    while (lf !== -1) {
      const line = pending.slice(0, lf);
      pending = pending.slice(lf + 1);
      stdoutLines.push(line);
      try {
        frames.push(JSON.parse(line));
      } catch {
        // Kept in stdoutLines: tests assert stdout purity on them.
      }
      lf = pending.indexOf("\n");
    }
    for (const wake of waiters) wake();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
  });
  child.stdin.on("error", () => {});
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const send = (frame: unknown) =>
    child.stdin.write(`${typeof frame === "string" ? frame : JSON.stringify(frame)}\n`);
  const reply = (id: unknown, timeoutMs = 10_000) =>
    new Promise<Frame>((resolve, reject) => {
      const check = () => {
        const found = frames.find((f) => f.id === id && f.method === undefined);
        if (!found) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no reply for ${JSON.stringify(id)} within ${timeoutMs} ms; stderr: ${err}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  const call = (method: string, params?: unknown, timeoutMs?: number) => {
    const id = nextId++;
    send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    return reply(id, timeoutMs);
  };
  return { child, frames, stdoutLines, stderr: () => err, send, reply, call, exited };
}

/** Invoke params for a fixture tool. */
export const invoke = (
  tool: string,
  args: Record<string, unknown> = {},
  context?: Record<string, unknown>,
) => (context ? { tool, arguments: args, context } : { tool, arguments: args });
