import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SubjectProcess } from "../src/driver/subject-process.js";
import { contactAndBurst, unreadGrowth } from "../src/figures/first-contact.js";
import { benchPaths } from "../src/subjects.js";

// A plugin that answers every describe, and the one with id 3 a second time: a host
// must not take a repeated answer for a missing one.
const REPEATER = `
const readline = require("node:readline");
const manifest = { name: "repeater", version: "1.0.0", description: "d", tools: [] };
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const { id } = JSON.parse(line);
  const answer = JSON.stringify({ jsonrpc: "2.0", id, result: manifest }) + "\\n";
  process.stdout.write(id === 3 ? answer + answer : answer);
});
`;

// A plugin that never answers the describe with id 5.
const DROPPER = REPEATER.replace("id === 3 ? answer + answer : answer", 'id === 5 ? "" : answer');

const dir = mkdtempSync(join(tmpdir(), "bench-first-contact-"));
const repeater = join(dir, "repeater.cjs");
writeFileSync(repeater, REPEATER);
const dropper = join(dir, "dropper.cjs");
writeFileSync(dropper, DROPPER);
const node = (file: string) => ({ command: process.execPath, args: [file] });
const baseline = node(join(benchPaths().benchDir, "baseline", "plugin.cjs"));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("answers counted in a burst", () => {
  it("count an id answered twice as a failure", async () => {
    const process = new SubjectProcess("repeater", node(repeater));
    try {
      const burst = await process.burstRequests("describe", undefined, 10, () => true);
      expect(burst.failures).toBe(1);
      expect(burst.firstFailure).toMatch(/^id 3 answered twice/);
    } finally {
      await process.close();
    }
  });

  it("fail the unread-stdout figure when an id is answered twice", async () => {
    await expect(unreadGrowth("repeater", node(repeater), 50, 50)).rejects.toThrow(
      /1 of 50 describe answers were wrong or repeated/,
    );
  });
});

describe("the unread-stdout figure", () => {
  it("fails, instead of hanging, when a describe is never answered", async () => {
    await expect(unreadGrowth("dropper", node(dropper), 50, 50, 500)).rejects.toThrow(
      /dropper: with stdout unread, not every describe was answered within 0.5 s/,
    );
  });
});

describe("first contact on the baseline (real processes)", () => {
  it("times describe and the first invoke from spawn, then the first burst", async () => {
    // Long enough to span scheduler ticks (see readCpuSplitUs): 200 invokes read 0 µs of CPU in 1 run of 4.
    const run = await contactAndBurst("baseline", baseline, 5_000);
    expect(run.describeMs).toBeGreaterThan(0);
    expect(run.firstInvokeMs).toBeGreaterThanOrEqual(run.describeMs);
    expect(run.burstPerS).toBeGreaterThan(0);
    if (process.platform === "linux") {
      expect(run.cpuPerInvokeUs).toBeGreaterThan(0);
      expect(run.mainThreadCpuPerInvokeUs).toBeGreaterThan(0);
      expect(run.mainThreadCpuPerInvokeUs).toBeLessThanOrEqual(run.cpuPerInvokeUs!);
      expect(run.peakRssBytes).toBeGreaterThan(1024 * 1024);
    }
  });

  it("reads RSS while stdout is unread, then every describe is answered once", async () => {
    const growth = await unreadGrowth("baseline", baseline, 2_000, 100);
    if (process.platform === "linux") expect(typeof growth).toBe("number");
  });
});
