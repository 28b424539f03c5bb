import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** A JSON-RPC response frame as it arrives on the plugin's stdout. */
export interface Frame {
  jsonrpc: "2.0";
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** A spawned plugin process driven over its real stdin/stdout pipes. */
export interface PluginProcess {
  child: ChildProcessWithoutNullStreams;
  /** Sends a request and resolves with the response frame carrying its id. */
  request(method: string, params?: unknown): Promise<Frame>;
  /** Every stdout line, parsed or not. */
  readonly stdoutLines: string[];
  stderr(): string;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  /** Closes stdin (the host's way to ask for shutdown) and waits for the exit. */
  close(): Promise<number | null>;
}

/** Spawns `node file` with piped stdio. */
export function spawnPlugin(file: string, env: Record<string, string> = {}): PluginProcess {
  const child = spawn(process.execPath, [file], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  const pending = new Map<number | string, (frame: Frame) => void>();
  const stdoutLines: string[] = [];
  let stderr = "";
  let nextId = 1;
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.on("error", () => {});
  createInterface({ input: child.stdout }).on("line", (line) => {
    stdoutLines.push(line);
    let frame: Frame;
    try {
      frame = JSON.parse(line) as Frame;
    } catch {
      return;
    }
    if (frame.id !== null && pending.has(frame.id)) {
      pending.get(frame.id)?.(frame);
      pending.delete(frame.id);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    stdoutLines,
    stderr: () => stderr,
    exited,
    request(method, params) {
      const id = nextId++;
      return new Promise<Frame>((resolve, reject) => {
        pending.set(id, resolve);
        void exited.then((code) =>
          reject(new Error(`plugin exited (${code}) before answering ${method}: ${stderr}`)),
        );
        child.stdin.write(
          `${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) })}\n`,
        );
      });
    },
    async close() {
      child.stdin.end();
      return exited;
    },
  };
}
