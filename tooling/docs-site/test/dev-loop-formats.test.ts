import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { REVERSE_FAMILIES } from "@executa/core";
import { REVERSE_METHODS, shapeCheckOf } from "@executa/core/internal";
import { parseFixtures, parseScript, wireMethodsOf } from "@executa/host/local";
import { describe, expect, it } from "vitest";

const guide = readFileSync(
  fileURLToPath(new URL("../../../docs/guide/dev-loop.md", import.meta.url)),
  "utf8",
);

/** The body of the first fenced block of `language` under `heading` (`### …` or `#### …`). */
function blockUnder(heading: string, language: string): string {
  const at = guide.search(new RegExp(`\n#{3,4} ${heading}\n`));
  if (at < 0) throw new Error(`no heading "${heading}"`);
  const section = guide.slice(at);
  const fence = "```";
  const match = new RegExp(`${fence}${language}\\n([\\s\\S]*?)\\n${fence}`).exec(section);
  if (!match) throw new Error(`no \`\`\`${language} block under "${heading}"`);
  return match[1]!;
}

const wireMethods = new Set(REVERSE_FAMILIES.flatMap((family) => Object.keys(family.methods)));

// The formats the dev-loop guide shows are the ones the local host reads.
describe("the dev-loop guide's file formats", () => {
  it("shows a sampling script the script responder accepts", () => {
    const rules = parseScript(JSON.parse(blockUnder("Sampling scripts", "json")), "dev-loop.md");
    expect(rules.map((rule) => rule.match)).toContain("");
  });

  it("shows fixture lines the fixtures loader accepts, each for a real reverse method", () => {
    const lines = parseFixtures(blockUnder("Fixture files", "jsonl"), "dev-loop.md");
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) {
      for (const method of wireMethodsOf(line)) expect(wireMethods, `${line.source}`).toContain(method);
    }
  });

  it("shows one fixture line per reverse method of the table, each result in the method's result shape", () => {
    const lines = parseFixtures(blockUnder("A line for every reverse method", "jsonl"), "dev-loop.md");
    const methods = lines.map((line) => `${line.ns}/${line.method}`);
    expect(methods).toEqual(REVERSE_METHODS.map((spec) => spec.method));
    for (const [index, line] of lines.entries()) {
      const spec = REVERSE_METHODS[index]!;
      expect(line.match, spec.method).toBeUndefined();
      expect(shapeCheckOf(spec.result)(line.result), `${line.source}: ${spec.method}`).toBeUndefined();
    }
  });
});
