import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";

/** Whether `redis-server` is on PATH (Debian's `redis-server` package). */
export const redisServerAvailable =
  spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;

/** What a test is told when `redis-server` is missing. */
export const REDIS_SERVER_MISSING = "redis-server is not installed: apt-get install -y redis-server";

/** A `redis-server` of a test's own: on loopback, in memory only, gone when stopped. */
export interface RedisServer {
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  /** Kills the server and waits for its exit. */
  stop(): Promise<void>;
}

/** Starts `redis-server` on a free loopback port, without persistence, and waits until it accepts connections. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("error", reject);
    void exited.then(() => reject(new Error(`redis-server exited before it was ready:\n${output}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    process: child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** A port free on loopback now (the kernel's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
