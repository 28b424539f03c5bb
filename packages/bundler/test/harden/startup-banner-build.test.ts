import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { EARLY_SIGNAL_GRACE_MS, EARLY_SIGNALS, startupBanner } from "../../src/harden/startup-banner.js";
import { tempDir } from "../helpers/temp-dir.js";
import { bunCli, listening, watch } from "./process-helpers.js";

// The banner by itself, as tsup writes it above a bundle, run by `node` and by `bun` over
// real processes and real signals. The built binaries are covered in hardened-binaries-build.test.ts.

// Built at run time, so that an error's echo of the source line never reads as the word.
const READY = `["re","ady\\n"].join("")`;

/** A script that never serves: it says it is ready and idles. */
const NEVER_SERVES = `process.stderr.write(${READY});setInterval(()=>{},1000);`;
/** A script that takes over like a server: reports what the banner recorded, disposes, exits 0. */
const TAKES_OVER = `process.stderr.write(${READY});setTimeout(()=>{const e=globalThis[Symbol.for("executa.earlySignals")];process.stderr.write("received "+JSON.stringify(e.received)+"\\n");e.dispose();setTimeout(()=>process.exit(0),${EARLY_SIGNAL_GRACE_MS}+500)},500);`;
/** A script that disposes at once: the signals' default actions are back. */
const DISPOSES = `globalThis[Symbol.for("executa.earlySignals")].dispose();process.stderr.write(${READY});setInterval(()=>{},1000);`;
/** A script that reports whether it runs in strict mode. */
const STRICTNESS = `"use strict";process.stderr.write((function(){return this===undefined})()?"strict\\n":"sloppy\\n");`;

const runtimes = [
  { name: "node", command: () => process.execPath },
  { name: "bun", command: bunCli },
] as const;

// Each test waits out the grace period on its own processes, so a runtime's tests run side
// by side (each with its own expect).
describe.concurrent.each(runtimes)("the bundle banner under $name", ({ command }) => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const script = async (name: string, body: string) => {
    const path = join(dir.path, `${name}.cjs`);
    await writeFile(path, `${startupBanner()}\n${body}`);
    return path;
  };
  beforeAll(async () => {
    dir = await tempDir("banner");
  });
  afterAll(() => dir?.remove());

  it.for(EARLY_SIGNALS)(
    "records an early %s for the server that takes over, instead of dying",
    async (signal, { expect }) => {
      const run = watch(command(), [await script(`takes-over-${signal}`, TAKES_OVER)]);
      await run.waitFor("ready");
      run.child.kill(signal);
      const exit = await run.exited;
      expect(run.stderr()).toContain(`received ["${signal}"]`);
      expect(exit).toMatchObject({ code: 0, signal: null });
    },
  );

  it.for(EARLY_SIGNALS)(
    "dies by %s after the grace period when no server takes over",
    async (signal, { expect }) => {
      const run = watch(command(), [await script(`never-serves-${signal}`, NEVER_SERVES)]);
      await run.waitFor("ready");
      const sent = performance.now();
      run.child.kill(signal);
      const exit = await run.exited;
      expect(exit.signal).toBe(signal);
      // Held for the grace period (timers may fire a little early), then not for long.
      expect(exit.at - sent).toBeGreaterThan(EARLY_SIGNAL_GRACE_MS - 200);
      expect(exit.at - sent).toBeLessThan(EARLY_SIGNAL_GRACE_MS + 10_000);
    },
  );

  it("after dispose(), SIGTERM has its default action again", async ({ expect }) => {
    const run = watch(command(), [await script("disposes", DISPOSES)]);
    await run.waitFor("ready");
    const sent = performance.now();
    run.child.kill("SIGTERM");
    const exit = await run.exited;
    expect(exit.signal).toBe("SIGTERM");
    expect(exit.at - sent).toBeLessThan(EARLY_SIGNAL_GRACE_MS);
  });

  it("ignores SIGUSR1: no inspector on 127.0.0.1:9229, the process lives on", async ({ expect }) => {
    expect(await listening(9229), "something else listens on 127.0.0.1:9229; cannot test").toBe(false);
    const run = watch(command(), [await script("usr1", NEVER_SERVES)]);
    try {
      await run.waitFor("ready");
      run.child.kill("SIGUSR1");
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await listening(9229)).toBe(false);
      expect(run.stderr()).not.toContain("Debugger listening");
      expect(run.child.exitCode).toBeNull();
      expect(run.child.signalCode).toBeNull();
    } finally {
      run.child.kill("SIGKILL");
    }
  });

  it('keeps the bundle\'s own "use strict" in force', async ({ expect }) => {
    const run = watch(command(), [await script("strict", STRICTNESS)]);
    await run.exited;
    expect(run.stderr()).toContain("strict\n");
    expect(run.stderr()).not.toContain("sloppy");
  });
});
