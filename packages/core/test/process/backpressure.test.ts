import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ECHO_PLUGIN } from "../helpers/spawn-fixture.js";

const REQUESTS = 40_000;
/** Each answer carries this much text: 40 000 of them are ~160 MB the host never reads. */
const TEXT_CHARS = 4000;
/** The peer buffers at most ~16 MiB of answers before it stops reading; a wide margin. */
const MAX_GROWTH_MIB = 120;

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once the plugin answered a health request (it started), then holds its stdout unread. */
function serving(child: ChildProcessWithoutNullStreams): Promise<void> {
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: "ready", method: "health" })}\n`);
  return new Promise((resolve) => {
    child.stdout.once("data", () => {
      child.stdout.pause();
      resolve();
    });
  });
}

describe.skipIf(process.platform !== "linux")("input backpressure over a real process", () => {
  it("stops reading requests while the host does not read answers, then answers each once", async () => {
    const child = spawn(process.execPath, [ECHO_PLUGIN], { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.stdin.on("error", () => {});
    try {
      await serving(child);
      const base = rssMiB(child.pid!);
      const text = "x".repeat(TEXT_CHARS);
      const lines: string[] = [];
      for (let id = 0; id < REQUESTS; id++) {
        lines.push(
          `{"jsonrpc":"2.0","id":${id},"method":"invoke","params":{"tool":"echo","arguments":{"text":"${text}"}}}`,
        );
      }
      child.stdin.write(`${lines.join("\n")}\n`);
      lines.length = 0;

      // stdout is not read meanwhile: the plugin's answers can only pile up in the plugin.
      // Sampled until it stopped reading (what it has not read stays unchanged for a
      // second): from then on nothing more can pile up. At most 6 s.
      let peak = base;
      let unread = -1;
      for (let tick = 0, still = 0; tick < 30 && still < 5; tick++) {
        await sleep(200);
        peak = Math.max(peak, rssMiB(child.pid!));
        still = child.stdin.writableLength === unread ? still + 1 : 0;
        unread = child.stdin.writableLength;
      }
      expect(unread, "the plugin stopped reading before the last request").toBeGreaterThan(0);
      expect(peak - base, `RSS grew from ${base} to ${peak} MiB`).toBeLessThan(MAX_GROWTH_MIB);

      const seen = new Map<unknown, number>();
      let pending = "";
      let answered = 0;
      child.stdout.resume();
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${answered} of ${REQUESTS} answered; stderr: ${stderr}`)),
          30_000,
        );
        child.stdout.on("data", (chunk: Buffer) => {
          pending += chunk.toString("utf8");
          let lf = pending.indexOf("\n");
          while (lf !== -1) {
            const frame = JSON.parse(pending.slice(0, lf)) as { id: unknown; result?: { success?: boolean } };
            pending = pending.slice(lf + 1);
            seen.set(frame.id, (seen.get(frame.id) ?? 0) + 1);
            if (frame.result?.success === true) answered += 1;
            lf = pending.indexOf("\n");
          }
          if (seen.size >= REQUESTS) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      expect(answered).toBe(REQUESTS);
      expect([...seen.values()].every((count) => count === 1)).toBe(true);
      for (let id = 0; id < REQUESTS; id++) expect(seen.has(id)).toBe(true);
    } finally {
      child.kill("SIGKILL");
    }
  }, 90_000);
});
