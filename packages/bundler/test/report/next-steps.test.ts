import { describe, expect, it } from "vitest";
import { nextSteps } from "../../src/report/next-steps.js";
import { createReporter } from "../../src/report/reporter.js";

describe("the build report's next steps", () => {
  it("runs and checks this platform's binary, by a path relative to the working directory", () => {
    expect(nextSteps({ hostBinary: "/p/dist/weather", bundle: "/p/dist/weather.cjs" }, "/p")).toEqual([
      "run:   ./dist/weather",
      "check: executa check -- ./dist/weather",
    ]);
  });

  it("falls back to the bundle under node when no binary runs here", () => {
    expect(nextSteps({ bundle: "/p/dist/weather.cjs" }, "/p")).toEqual([
      "run:   node ./dist/weather.cjs",
      "check: executa check -- node ./dist/weather.cjs",
    ]);
  });

  it("keeps a path outside the working directory absolute, quoted when the shell needs it", () => {
    expect(nextSteps({ hostBinary: "/out dir/it's", bundle: "/out dir/x.cjs" }, "/p")).toEqual([
      "run:   '/out dir/it'\\''s'",
      "check: executa check -- '/out dir/it'\\''s'",
    ]);
  });

  it("ends the report with them, indented, and prints nothing when quiet", () => {
    const lines: string[] = [];
    const report = createReporter({ write: (text) => lines.push(text) });
    report.done("done: weather 1.0.0");
    report.next(["run:   ./dist/weather", "check: executa check -- ./dist/weather"]);
    expect(lines.join("")).toBe(
      "done: weather 1.0.0\n  run:   ./dist/weather\n  check: executa check -- ./dist/weather\n",
    );
    const silent: string[] = [];
    createReporter({ quiet: true, write: (text) => silent.push(text) }).next(["run:   x"]);
    expect(silent).toEqual([]);
  });
});
