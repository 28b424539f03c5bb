import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log/logger.js";
import { JsonRpcPeer } from "../../src/rpc/peer.js";
import { streamTransport } from "../../src/transport/stream-transport.js";

const LATE_ANSWER = fileURLToPath(new URL("../fixtures/late-answer.mjs", import.meta.url));

describe("late answers over a real process", () => {
  const children: ReturnType<typeof spawn>[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill("SIGKILL");
  });

  it("drops the late answer to a timed-out request at debug level; a truly unknown id still warns", async () => {
    const child = spawn(process.execPath, [LATE_ANSWER], { stdio: "pipe" });
    children.push(child);
    const lines: string[] = [];
    const peer = new JsonRpcPeer({
      transport: streamTransport(child.stdout, { stream: child.stdin }),
      log: createLogger("host", { level: "debug", write: (line) => lines.push(line) }),
      handleRequest: () => null,
      newId: () => "req-1",
    });
    await expect(peer.request("slow", undefined, { timeoutMs: 20 })).rejects.toThrow(/timed out/);
    await expect.poll(() => lines.join(""), { timeout: 10_000 }).toContain("never-sent");
    const log = lines.join("");
    expect(log).toContain('debug: dropped the late response for abandoned id "req-1"');
    expect(log).not.toContain('unknown id "req-1"');
    expect(log).toContain('warn: dropped a response for unknown id "never-sent"');
  });

  it("drops the late answer to an aborted request the same way", async () => {
    const child = spawn(process.execPath, [LATE_ANSWER], { stdio: "pipe" });
    children.push(child);
    const lines: string[] = [];
    const peer = new JsonRpcPeer({
      transport: streamTransport(child.stdout, { stream: child.stdin }),
      log: createLogger("host", { level: "debug", write: (line) => lines.push(line) }),
      handleRequest: () => null,
      newId: () => "req-2",
    });
    const controller = new AbortController();
    const request = peer.request("slow", undefined, { signal: controller.signal });
    controller.abort(new Error("gave up"));
    await expect(request).rejects.toThrow("gave up");
    await expect.poll(() => lines.join(""), { timeout: 10_000 }).toContain("never-sent");
    expect(lines.join("")).toContain('debug: dropped the late response for abandoned id "req-2"');
    expect(lines.join("")).not.toContain('unknown id "req-2"');
  });
});
