import { fileURLToPath } from "node:url";
import { afterEach, expect } from "vitest";
import { type FixtureProcess, type Frame, spawnFixture } from "./spawn-fixture.js";

export const LIFECYCLE_PLUGIN = fileURLToPath(new URL("../fixtures/lifecycle-plugin.mjs", import.meta.url));

/**
 * The lifecycle fixture for a test file: `spawn` starts it with extra environment (killed
 * after each test), `start` also waits for its `describe` answer.
 */
export function lifecycleFixture() {
  let current: FixtureProcess | undefined;
  afterEach(() => {
    current?.child.kill("SIGKILL");
  });
  const spawn = (env: Record<string, string> = {}) => {
    current = spawnFixture(env, LIFECYCLE_PLUGIN);
    return current;
  };
  const start = async (env: Record<string, string> = {}) => {
    const plugin = spawn(env);
    expect((await plugin.call("describe")).result).toBeDefined();
    return plugin;
  };
  return { spawn, start };
}

/** Polls until `probe` returns a value, or fails after `timeoutMs` naming `what`. */
export async function until<T>(
  what: string,
  probe: () => T | undefined | false,
  p: FixtureProcess,
  timeoutMs = 10_000,
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out waiting for ${what}; stderr:\n${p.stderr()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The reverse calls (plugin → host requests) the plugin has sent so far. */
export const reverseCalls = (p: FixtureProcess, method: string): Frame[] =>
  p.frames.filter((f) => f.method === method && f.id !== undefined);

/** Waits for `count` reverse calls of `method`. */
export const reverseCallsArrived = (p: FixtureProcess, method: string, count: number) =>
  until(
    `${count} ${method} reverse calls`,
    () => reverseCalls(p, method).length >= count && reverseCalls(p, method),
    p,
  );

/** Answers each reverse call as the host would: `{ value, exists }` for its key. */
export function answerStorageGets(p: FixtureProcess, calls: Frame[]): void {
  for (const call of calls) {
    const key = (call.params as { key?: string }).key;
    p.send({ jsonrpc: "2.0", id: call.id, result: { value: `v-${key}`, exists: true, etag: "e1" } });
  }
}

/** Lines of the fixture's stderr that start with `FIXTURE `. */
export const fixtureLines = (p: FixtureProcess): string[] =>
  p
    .stderr()
    .split("\n")
    .filter((line) => line.startsWith("FIXTURE "))
    .map((line) => line.slice("FIXTURE ".length));

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
