import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The built executable, over real pipes (`pnpm --filter @executa-apps/toolbox build`).
const binary = fileURLToPath(new URL("../dist/toolbox", import.meta.url));

const REQUESTS = 20_000;
/** Issue budget: 20,000 describes (~70 MiB of answers) unread grow the plugin by at most this. */
const MAX_GROWTH_MIB = 32;

function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(process.platform !== "linux")("a host that stops reading stdout", () => {
  it("20,000 describes unread grow the binary by ≤ 32 MiB, and each is answered once it reads", async () => {
    if (!existsSync(binary)) throw new Error(`${binary} is missing: build the toolbox first`);
    const child = spawn(binary, [], { stdio: ["pipe", "pipe", "pipe"] });
    child.stdin.on("error", () => {});
    child.stdout.pause();
    try {
      await sleep(300);
      const base = rssMiB(child.pid!);
      const lines = Array.from(
        { length: REQUESTS },
        (_, id) => `{"jsonrpc":"2.0","id":${id},"method":"describe"}`,
      );
      child.stdin.write(`${lines.join("\n")}\n`);
      let peak = base;
      for (let tick = 0; tick < 15; tick++) {
        await sleep(100);
        peak = Math.max(peak, rssMiB(child.pid!));
      }
      expect(peak - base, `RSS grew from ${base.toFixed(1)} to ${peak.toFixed(1)} MiB`).toBeLessThanOrEqual(
        MAX_GROWTH_MIB,
      );

      const seen = new Map<number, number>();
      let pending = "";
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${seen.size} of ${REQUESTS} answered`)),
          60_000,
        );
        child.stdout.on("data", (chunk: Buffer) => {
          pending += chunk.toString("utf8");
          let lf = pending.indexOf("\n");
          while (lf !== -1) {
            const frame = JSON.parse(pending.slice(0, lf)) as { id: number; result?: { name?: string } };
            pending = pending.slice(lf + 1);
            if (frame.result?.name === "toolbox") seen.set(frame.id, (seen.get(frame.id) ?? 0) + 1);
            lf = pending.indexOf("\n");
          }
          if (seen.size === REQUESTS) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.stdout.resume();
      });
      expect([...seen.values()].every((count) => count === 1)).toBe(true);
    } finally {
      child.kill("SIGKILL");
    }
  }, 90_000);
});
