import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { streamTransport } from "@executa/core";
import { FakeHost, type FixtureOptions, MAX_LINE_BYTES } from "./fake-host.js";

const HOST_PLUGIN = fileURLToPath(new URL("../fixtures/host-plugin.mjs", import.meta.url));

/**
 * A host that spawned the fixture plugin as a child (core's built output) and speaks to
 * it over the child's stdio, for what only a process shows: its stdout and its exit.
 */
export async function spawnHost(options: FixtureOptions = {}): Promise<FakeHost> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  if (options.declared) env.FIXTURE_HOST_CAPS = options.declared.join(",");
  if (options.logLevel) env.EXECUTA_LOG_LEVEL = options.logLevel;
  if (options.shutdownGraceMs !== undefined) env.FIXTURE_GRACE_MS = String(options.shutdownGraceMs);
  const child = spawn(process.execPath, [HOST_PLUGIN], { env, stdio: "pipe" });
  child.stdin.on("error", () => {});
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const host = new FakeHost({
    transport: streamTransport(child.stdout, { stream: child.stdin }, { maxLineBytes: MAX_LINE_BYTES }),
    exited,
    close: async () => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  });
  child.stderr.on("data", (chunk: Buffer) => host.appendStderr(chunk.toString("utf8")));
  await host.initialize("2.0");
  return host;
}
