import { fileURLToPath } from "node:url";
import { createLogger } from "@executa/core";
import type { PluginProcess } from "../../src/process/plugin-process.js";
import { type PluginProcessOptions, spawnPlugin } from "../../src/process/plugin-process.js";

/** Absolute path of a fixture plugin. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
}

const running = new Set<PluginProcess>();

/** What the host logged (instead of the test output), newest last. */
export const hostLogs: string[] = [];
const quietLog = createLogger("executa-host", {
  level: "debug",
  write: (line) => void hostLogs.push(line.trimEnd()),
});

/** Spawns a fixture with node; {@link stopAll} cleans up whatever a test left running. */
export async function spawnFixture(
  name: string,
  options: Partial<PluginProcessOptions> = {},
): Promise<PluginProcess> {
  const plugin = await spawnPlugin({
    command: process.execPath,
    args: [fixture(name)],
    log: quietLog,
    ...options,
  });
  running.add(plugin);
  return plugin;
}

export async function stopAll(): Promise<void> {
  await Promise.all(
    [...running].map((plugin) => (plugin.running ? plugin.stop({ graceMs: 500 }) : undefined)),
  );
  running.clear();
}
