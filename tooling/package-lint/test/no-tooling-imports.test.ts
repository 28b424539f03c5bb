import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../../../", import.meta.url));

/** Every .ts file under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => join(dir, file));
}

// A published package cannot reach the repository's tooling: its source must not import it.
describe("product sources", () => {
  it("import nothing from the repository's tooling folder", () => {
    const roots = ["packages", "apps"].flatMap((group) =>
      readdirSync(join(repo, group)).map((name) => join(repo, group, name, "src")),
    );
    const offenders = roots
      .flatMap((root) => {
        try {
          return sources(root);
        } catch {
          return [];
        }
      })
      .filter((file) => /from\s+["'][^"']*\/tooling\//.test(readFileSync(file, "utf8")))
      .map((file) => file.slice(repo.length));
    expect(offenders).toEqual([]);
  });
});
