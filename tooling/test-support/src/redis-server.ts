import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { freePort } from "./free-port.mjs";

/** Whether `redis-server` is on PATH (Debian's redis-server package). */
export function redisServerAvailable(): boolean {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** What a test is told when `redis-server` is missing. */
export const REDIS_SERVER_MISSING = "redis-server is not installed: apt-get install -y redis-server";

/** A `redis-server` this process started. */
export interface RedisServer {
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  readonly pid: number;
  /** Stops it (SIGTERM by PID) and waits for its exit. */
  stop(): Promise<void>;
}

/**
 * Starts `redis-server` on 127.0.0.1 on a free port, with no persistence (no RDB snapshot,
 * no append-only file, nothing written to disk), and resolves once it accepts connections.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no", "--dir", "/tmp"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await ready(child);
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid as number, "SIGTERM");
      await exited;
    },
  };
}

/** Resolves when the server logs that it accepts connections; rejects with its output if it exits first. */
function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) =>
      reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)),
    );
    child.once("error", reject);
  });
}
