import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import type { CliIO } from "../../src/cli-io.js";
import { type DevFlags, runDev } from "../../src/commands/dev.js";
import { fixture } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "executa-run-dev-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function memoryIO(): CliIO & { text: () => string } {
  let text = "";
  const sink = () => {
    const stream = new PassThrough();
    stream.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    return stream;
  };
  return { stdin: new PassThrough(), stdout: sink(), stderr: sink(), text: () => text };
}

const watchFlags = (): DevFlags => ({
  describe: true,
  watch: true,
  watchPath: [dir],
  profile: "default",
  dataDir: join(dir, "data"),
});

async function waitForText(io: { text: () => string }, pattern: RegExp): Promise<void> {
  await expect.poll(() => io.text(), { timeout: 20_000, interval: 20 }).toMatch(pattern);
}

describe("runDev --describe --watch", () => {
  it("removes its SIGINT listener when stopped by its signal", async () => {
    const before = process.listenerCount("SIGINT");
    const io = memoryIO();
    const controller = new AbortController();
    const done = runDev([fixture("good-plugin.mjs")], watchFlags(), io, { signal: controller.signal });
    await waitForText(io, /watching /);
    expect(process.listenerCount("SIGINT")).toBe(before + 1);
    controller.abort();
    expect(await done).toBe(0);
    expect(process.listenerCount("SIGINT")).toBe(before);
  });

  it("stops on SIGINT and leaves no listener behind", async () => {
    const before = process.listenerCount("SIGINT");
    const io = memoryIO();
    const done = runDev([fixture("good-plugin.mjs")], watchFlags(), io);
    await waitForText(io, /watching /);
    process.emit("SIGINT", "SIGINT");
    expect(await done).toBe(0);
    expect(process.listenerCount("SIGINT")).toBe(before);
    expect(io.text()).toContain('"name": "good-plugin"');
  });
});
