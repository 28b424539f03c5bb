import { describe, expect, it } from "vitest";
import { documentationSamples, samplesOf, typecheckSamples } from "../code-samples.mjs";
import { visibleSample } from "../markdown.mjs";

// One TypeScript program over every sample of the site and the packages' sources: slow
// to start, so one generous timeout.
const CHECK_TIMEOUT_MS = 180_000;

describe("the documentation's code samples", () => {
  it(
    "type-check against the packages (the site's and the READMEs')",
    () => {
      const samples = documentationSamples();
      expect(samples.length).toBeGreaterThan(20);
      const problems = typecheckSamples(samples).map((p) => `${p.file}:${p.line}: ${p.message}`);
      expect(problems).toEqual([]);
    },
    CHECK_TIMEOUT_MS,
  );

  it(
    "report a planted error at its markdown line, and a hidden prelude type-checks but is not shown",
    () => {
      const markdown = [
        "# Planted",
        "",
        "```ts",
        'import { ToolError } from "@executa/core";',
        'const fine: ToolError = new ToolError("no");',
        "```",
        "",
        "```ts",
        'import { definePlugin } from "@executa/core";',
        'definePlugin({ manifest: { name: "x" } });',
        "```",
        "",
        "~~~typescript",
        "declare const count: number;",
        "// ---cut---",
        "const doubled: string = count * 2;",
        "~~~",
        "",
        "```json",
        "{ not: typescript }",
        "```",
      ].join("\n");
      const samples = samplesOf("docs/planted.md", markdown);
      expect(samples.map((sample) => sample.line)).toEqual([4, 9, 14]);
      const problems = typecheckSamples(samples);
      expect(problems.map((p) => [p.file, p.line])).toEqual([
        ["docs/planted.md", 10],
        ["docs/planted.md", 16],
      ]);
      expect(problems[0]?.message).toMatch(/handlers|version|tools/);
      expect(problems[1]?.message).toMatch(/not assignable to type 'string'/);
      expect(visibleSample(samples[2]?.code ?? "")).toBe("const doubled: string = count * 2;");
    },
    CHECK_TIMEOUT_MS,
  );
});
