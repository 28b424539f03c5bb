import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const bundle = fileURLToPath(new URL("../dist/toolbox.cjs", import.meta.url));

// A Bun executable pays several milliseconds at startup for each Node built-in the bundle
// loads (node:crypto ~6 ms, node:fs ~5 ms) and memory for some (node:async_hooks ~2 MiB):
// the toolkit loads the others on first use.
describe("the toolbox bundle at load", () => {
  it("requires no Node built-in but events", () => {
    // Past the shebang and the startup banner, whose requires run only inside a Node single executable.
    const code = readFileSync(bundle, "utf8").split("\n").slice(2).join("\n");
    const atLoad = [...code.matchAll(/\b(?:var|let|const) [\w$]+\s*=\s*require\("([^"]+)"\)/g)].map(
      (m) => m[1],
    );
    expect([...new Set(atLoad)].sort()).toEqual(["events"]);
  });
});
