import { type ChildProcess, spawn } from "node:child_process";

/** A toolbox serving MCP over Streamable HTTP on a free port of 127.0.0.1. */
export interface HttpServed {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT/mcp`, as the server logged it. */
  url: string;
  /** Everything the server wrote to stderr so far. */
  stderr: () => string;
  /** Resolves with the exit code once the server has exited. */
  exited: Promise<number | null>;
}

/**
 * Starts `command ...args --mcp-http 127.0.0.1:0` and resolves once it names its endpoint
 * on stderr; rejects if it exits first.
 */
export async function serveHttp(
  command: string,
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<HttpServed> {
  const child = spawn(command, [...args, "--mcp-http", "127.0.0.1:0"], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (found) resolve(found);
    });
    child.once("exit", () => reject(new Error(`exited before listening: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr, exited };
}
