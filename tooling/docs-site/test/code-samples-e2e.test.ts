import { describe, expect, it } from "vitest";
import {
  EXECUTA_DEV_PACKAGES,
  EXECUTA_RUNTIME_PACKAGES,
} from "../../../packages/cli/src/commands/new/versions.js";
import { documentationSamples, samplesOf, typecheckSamples } from "../code-samples.mjs";
import { visibleSample } from "../markdown.mjs";

// One TypeScript program over every sample of the site and the packages' sources: slow
// to start, so one generous timeout.
const CHECK_TIMEOUT_MS = 300_000;

// What `executa new` makes a project depend on: the only toolkit packages a sample may import
// (unless its page declares more in its front matter's `dependencies`).
const SCAFFOLD = [...EXECUTA_RUNTIME_PACKAGES, ...EXECUTA_DEV_PACKAGES];

describe("the documentation's code samples", () => {
  it(
    "type-check against a scaffolded project's packages (the site's and the READMEs')",
    () => {
      const samples = documentationSamples();
      expect(samples.length).toBeGreaterThan(20);
      const problems = typecheckSamples(samples, SCAFFOLD).map((p) => `${p.file}:${p.line}: ${p.message}`);
      expect(problems).toEqual([]);
    },
    CHECK_TIMEOUT_MS,
  );

  it(
    "report a planted error at its markdown line, an import the scaffold cannot resolve, and a hidden prelude type-checks but is not shown",
    () => {
      const markdown = [
        "# Planted",
        "",
        "```ts",
        'import { ToolError } from "@executa/decorators";',
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
      const problems = typecheckSamples(samples, SCAFFOLD);
      expect(problems.map((p) => [p.file, p.line])).toEqual([
        ["docs/planted.md", 9],
        ["docs/planted.md", 16],
      ]);
      expect(problems[0]?.message).toMatch(/Cannot find module '@executa\/core'/);
      expect(problems[1]?.message).toMatch(/not assignable to type 'string'/);
      expect(visibleSample(samples[2]?.code ?? "")).toBe("const doubled: string = count * 2;");
    },
    CHECK_TIMEOUT_MS,
  );
});
