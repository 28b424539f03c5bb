import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The deployment guide's environment table is the operator's list of every EXECUTA_MCP_*
// variable: each one the packages read is in it, and it names none they do not read.
const root = fileURLToPath(new URL("../../../", import.meta.url));
const guide = readFileSync(join(root, "docs/guide/deployment.md"), "utf8");

/** The variables named in the first column of the table under `## Environment`. */
function tableVariables(): string[] {
  const section = guide.slice(
    guide.indexOf("\n## Environment\n"),
    guide.indexOf("\n## ", guide.indexOf("\n## Environment\n") + 1),
  );
  return [...section.matchAll(/^\| `(EXECUTA_MCP_[A-Z0-9_]+)` \|/gm)].map((match) => match[1]!);
}

/** Every EXECUTA_MCP_* name written whole as a string in the packages' sources (their variables' names). */
function sourceVariables(): string[] {
  const names = new Set<string>();
  for (const pkg of readdirSync(join(root, "packages"))) {
    const src = join(root, "packages", pkg, "src");
    for (const file of readdirSync(src, { recursive: true, encoding: "utf8" })) {
      if (!/\.(ts|mts|cts)$/.test(file)) continue;
      const text = readFileSync(join(src, file), "utf8");
      for (const match of text.matchAll(/["'`](EXECUTA_MCP_[A-Z0-9_]*[A-Z0-9])["'`]/g)) names.add(match[1]!);
    }
  }
  return [...names].sort();
}

describe("the deployment guide's environment table", () => {
  it("lists every EXECUTA_MCP_ variable the packages read, and only those, once each", () => {
    const table = tableVariables();
    expect(new Set(table).size).toBe(table.length);
    expect([...table].sort()).toEqual(sourceVariables());
  });

  it("finds the variables it compares (the scan and the table are not both empty)", () => {
    expect(sourceVariables()).toEqual(
      expect.arrayContaining(["EXECUTA_MCP_HTTP_TOKEN", "EXECUTA_MCP_RATE_LIMIT"]),
    );
  });
});
