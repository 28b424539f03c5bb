import { describe, expect, it } from "vitest";
import { formatBytes, formatMs } from "../../src/report/format.js";
import { createReporter, isQuiet } from "../../src/report/reporter.js";

describe("build report", () => {
  it("is quiet when asked, by EXECUTA_BUILD_QUIET, or on CI", () => {
    expect(isQuiet(true, {})).toBe(true);
    expect(isQuiet(false, { CI: "true", EXECUTA_BUILD_QUIET: "1" })).toBe(false);
    expect(isQuiet(undefined, { EXECUTA_BUILD_QUIET: "1" })).toBe(true);
    expect(isQuiet(undefined, { EXECUTA_BUILD_QUIET: "0", CI: "true" })).toBe(false);
    expect(isQuiet(undefined, { CI: "true" })).toBe(true);
    expect(isQuiet(undefined, { CI: "false" })).toBe(false);
    expect(isQuiet(undefined, {})).toBe(false);
  });

  it("prints aligned steps, or nothing when quiet", () => {
    const lines: string[] = [];
    const report = createReporter({ write: (text) => lines.push(text) });
    report.start("weather 1.0.0");
    report.step("bundle", "dist/weather.cjs  94.3 KiB", ["sha256 abc"]);
    report.note("heads up");
    expect(lines.join("")).toBe(
      "executa build · weather 1.0.0\n  ✓ bundle        dist/weather.cjs  94.3 KiB\n                  sha256 abc\n  ! heads up\n",
    );
    const silent: string[] = [];
    const quiet = createReporter({ quiet: true, write: (text) => silent.push(text) });
    quiet.start("x");
    quiet.step("a", "b");
    expect(silent).toEqual([]);
  });

  it("formats sizes and durations", () => {
    expect(formatBytes(812)).toBe("812 B");
    expect(formatBytes(96_563)).toBe("94.3 KiB");
    expect(formatBytes(99_093_632)).toBe("94.5 MiB");
    expect(formatMs(412.4)).toBe("412 ms");
    expect(formatMs(1840)).toBe("1.84 s");
  });
});
