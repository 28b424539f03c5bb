import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExecutaBuildError } from "../../src/errors/build-error.js";
import { buildExecutables } from "../../src/pipeline/build-executables.js";
import type { BuildExecutablesResult } from "../../src/pipeline/finish-build.js";
import { targetPlatform } from "../../src/platform/platforms.js";
import { runnerFor } from "../../src/verify/run-here.js";
import { findWineLoader } from "../../src/verify/wine.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/temp-dir.js";

// A Windows x86_64 Node single executable built here and run under Wine in batch mode.
// CI installs wine64 (.ci/run), so there the binary must really run.
const BUILD_TIMEOUT_MS = 600_000;
const onCi = Boolean(process.env.CI) && process.env.CI !== "false";
const windows = targetPlatform("windows-x86_64");

describe("a windows-x86_64 build on a machine with Wine", () => {
  let out: Awaited<ReturnType<typeof tempDir>>;
  let result: BuildExecutablesResult;
  let wine: string | undefined;

  beforeAll(async () => {
    wine = await findWineLoader(process.env);
    out = await tempDir("targets-wine");
    result = await buildExecutables({
      entry: fixture("core-plugin/main.ts"),
      outDir: out.path,
      quiet: true,
      runtime: "node",
      targets: ["windows-x86_64"],
    });
  }, BUILD_TIMEOUT_MS);
  afterAll(() => out?.remove());

  it("runs the binary under Wine in batch mode and says which checks need a live pipe (on CI, Wine is required)", () => {
    const binary = result.binaries[0]!;
    if (!onCi && !wine) {
      expect(binary).toMatchObject({ verification: "structural", notRun: expect.stringMatching(/Wine/) });
      return;
    }
    expect(binary).toMatchObject({ platform: "windows-x86_64", verification: "emulated" });
    expect(binary.via).toMatch(/^wine/);
    expect(binary.checks).toEqual(
      expect.arrayContaining([
        "describe = source manifest",
        "health status value",
        "-32700 for unparsable input",
        "-32601 for an unknown method",
        "-32602 for invoke params without `tool`",
        "-32601 for invoke of an unknown tool",
        "an oversized line → -32600, keeps serving",
        // The tools whose parameters all have defaults: `echo` needs a text.
        "invoke fail with its sample arguments",
        "invoke eol with its sample arguments",
        "end of input → exit 0",
        "stdout purity",
      ]),
    );
    expect(binary.checks).not.toContain("invoke echo with its sample arguments");
    expect(binary.needPipe).toEqual(expect.arrayContaining(["SIGTERM → exit 0 within 5 s"]));
  });

  it(
    "fails on a Windows binary whose stdout is broken, naming it; nothing is left",
    async () => {
      const faulty = await tempDir("targets-wine-fault");
      try {
        const outcome = await buildExecutables({
          entry: fixture("windows-broken-stdout/main.ts"),
          outDir: faulty.path,
          quiet: true,
          runtime: "node",
          targets: ["windows-x86_64"],
        }).catch((error: unknown) => error);
        if (!onCi && !wine) {
          expect(outcome).not.toBeInstanceOf(Error);
          return;
        }
        expect(outcome).toBeInstanceOf(ExecutaBuildError);
        const failure = outcome as ExecutaBuildError;
        expect(failure.code).toBe("CONFORMANCE");
        expect(failure.step).toBe("verify windows-x86_64");
        expect(failure.message).toContain("core-fixture-windows-x86_64.exe (under wine");
        expect(failure.message).toMatch(/initialize answered: no answer to initialize/);
        expect(await readdir(faulty.path)).toEqual([]);
      } finally {
        await faulty.remove();
      }
    },
    BUILD_TIMEOUT_MS,
  );
});

describe("a runtime that cannot run under Wine", () => {
  it("is checked from its bytes, with the reason (a Bun Windows binary exits 53 under Wine)", async () => {
    const lookup = await runnerFor(windows, process.env, { runtime: "bun" });
    expect(lookup.runner).toBeUndefined();
    expect(lookup).toMatchObject({ why: expect.stringContaining("exit code 53") });
  });
});
