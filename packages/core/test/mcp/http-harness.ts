import { type ChildProcess, spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";

// The fixture plugin serving MCP over Streamable HTTP in a child process (built dist), and
// raw POSTs to it, for the process tests of the HTTP endpoint.
const FIXTURE = fileURLToPath(new URL("./fixtures/http-plugin.mjs", import.meta.url));

/** A fixture process serving `--mcp-http`. */
export interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  stderr(): string;
  readonly exited: Promise<number | null>;
  /** Resolves once stderr holds `text` `times` times. */
  waitFor(text: string, times?: number): Promise<void>;
  /** Kills the process and waits for its exit. */
  kill(): Promise<void>;
}

/** Starts the fixture with `args` and waits until it serves. */
export async function serveHttpFixture(args = ["--mcp-http", "127.0.0.1:0"]): Promise<Served> {
  const child = spawn(process.execPath, [FIXTURE, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const watchers = new Set<() => void>();
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const wake of watchers) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const count = (text: string) => stderr.split(text).length - 1;
  const waitFor = (text: string, times = 1) =>
    new Promise<void>((resolve, reject) => {
      const wake = () => {
        if (count(text) < times) return;
        watchers.delete(wake);
        resolve();
      };
      watchers.add(wake);
      wake();
      void exited.then(() => (count(text) >= times ? resolve() : reject(new Error(`exited: ${stderr}`))));
    });
  await waitFor("Streamable HTTP at ");
  const url = /at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1] as string;
  const kill = async () => {
    child.kill("SIGKILL");
    await exited;
  };
  return { child, url, stderr: () => stderr, exited, waitFor, kill };
}

/** An HTTP answer as read off the socket. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** POSTs one JSON-RPC message, accepting JSON and event streams unless `headers` says otherwise. */
export function postMessage(
  url: string,
  message: object,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(message));
  });
}

/** The JSON-RPC message an answer carries: its JSON body, or the last event of its stream. */
export function answerOf(answer: RawAnswer): Record<string, unknown> {
  const events = answer.body.split("\n").filter((line) => line.startsWith("data: "));
  const text = events.length > 0 ? (events.at(-1) as string).slice(6) : answer.body;
  return JSON.parse(text) as Record<string, unknown>;
}
