import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { computeRatios } from "../src/ratios.js";
import { renderMarkdown } from "../src/report/markdown.js";
import { renderRatioChart } from "../src/report/svg.js";
import type { BenchResults } from "../src/results.js";
import { benchPaths } from "../src/subjects.js";

// The committed results were written by one run (results.json, then results.md and
// ratios.svg rendered from it): rendering the JSON again must give the same files, byte
// for byte, so a change to the renderers cannot change the report's format unnoticed.
describe("the committed results", () => {
  const dir = join(benchPaths().benchDir, "results");
  const committed = (name: string) => readFileSync(join(dir, name), "utf8");
  const results = JSON.parse(committed("results.json")) as BenchResults;

  it("render to the committed results.md", () => {
    expect(renderMarkdown(results)).toBe(committed("results.md"));
  });

  it("render to the committed ratios.svg", () => {
    expect(renderRatioChart(results)).toBe(committed("ratios.svg"));
  });

  it("give the committed ratios from the committed figures", () => {
    expect(computeRatios(results.subjects, results.figures)).toEqual(results.ratios);
  });

  it("render the subjects that were not measured, and no validation table without the figure", () => {
    const variant: BenchResults = {
      ...results,
      skipped: [{ id: "toolbox-bun", label: "toolbox (Bun executable)", reason: "not built" }],
      figures: Object.fromEntries(
        Object.entries(results.figures).map(([id, figures]) => [id, { ...figures, validation: undefined }]),
      ),
    };
    const markdown = renderMarkdown(variant);
    expect(markdown).toContain("\n\nNot measured: `toolbox-bun` (not built).\n\n## First contact");
    expect(markdown).toContain("\n\n## Figures\n");
    expect(markdown).not.toContain("## Validation overhead");
    expect(markdown.endsWith("\n")).toBe(true);
  });
});
