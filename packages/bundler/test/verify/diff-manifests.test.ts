import type { Manifest } from "@executa/core";
import { describe, expect, it } from "vitest";
import { diffManifests, formatDifferences } from "../../src/verify/diff-manifests.js";

const manifest = (): Manifest => ({
  name: "weather",
  version: "1.0.0",
  description: "Weather.",
  tools: [
    {
      name: "get_weather",
      description: "Now.",
      parameters: [
        { name: "city", type: "string", required: true },
        { name: "days", type: "integer", required: false, default: 3 },
      ],
    },
    { name: "ping", description: "Ping.", parameters: [] },
  ],
});

describe("diffManifests", () => {
  it("finds nothing between equal manifests, whatever the key order", () => {
    const keys = manifest();
    const shuffled = {
      tools: keys.tools,
      description: keys.description,
      version: keys.version,
      name: keys.name,
    };
    expect(diffManifests(manifest(), shuffled)).toEqual([]);
  });

  it("names a collapsed parameter type by tool and parameter", () => {
    const broken = manifest();
    broken.tools[0]!.parameters![0]!.type = "object";
    expect(diffManifests(manifest(), broken)).toEqual([
      { path: "tools[get_weather].parameters[city].type", expected: "string", actual: "object" },
    ]);
  });

  it("reports missing and extra entries, changed order and changed scalars", () => {
    const other = manifest();
    other.version = "1.0.1";
    other.tools.reverse();
    other.tools[1]!.parameters = [];
    other.tools.push({ name: "extra", description: "New." });
    const paths = diffManifests(manifest(), other).map((d) => d.path);
    expect(paths).toEqual([
      "tools[get_weather].parameters[city]",
      "tools[get_weather].parameters[days]",
      "tools[extra]",
      "version",
    ]);
    const reordered = manifest();
    reordered.tools.reverse();
    expect(diffManifests(manifest(), reordered).map((d) => d.path)).toEqual(["tools (order)"]);
  });

  it("formats differences one per line, with a limit", () => {
    const text = formatDifferences(
      [
        { path: "a", expected: 1, actual: 2 },
        { path: "b", expected: undefined, actual: "x" },
        { path: "c", expected: true, actual: false },
      ],
      2,
    );
    expect(text).toBe('  a: source 1, artifact 2\n  b: source (absent), artifact "x"\n  … and 1 more');
  });
});
