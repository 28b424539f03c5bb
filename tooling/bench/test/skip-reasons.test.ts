import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { discoverSubjects } from "../src/subjects.js";

const root = mkdtempSync(join(tmpdir(), "bench-skips-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("says for each subject that is not built which file is missing and, where one exists, the command that builds it", () => {
  const benchDir = join(root, "tooling", "bench");
  const exe = process.platform === "win32" ? "toolbox.exe" : "toolbox";
  const { skipped } = discoverSubjects({ repoRoot: root, benchDir });
  const subjects = " (pnpm --filter @executa/bench build:subjects)";
  expect(skipped).toEqual([
    {
      id: "toolbox-sea",
      label: "toolbox (single executable)",
      reason: `${join(benchDir, "subjects", "dist", "toolbox-sea", exe)} not built${subjects}`,
    },
    {
      id: "toolbox-bun",
      label: "toolbox (Bun executable)",
      reason: `${join(benchDir, "subjects", "dist", "toolbox-bun", exe)} not built${subjects}`,
    },
    {
      id: "toolbox-bun-bytecode",
      label: "toolbox (Bun + bytecode)",
      reason: `${join(benchDir, "subjects", "dist", "toolbox-bun-bytecode", exe)} not built${subjects}`,
    },
    {
      id: "toolbox-node",
      label: "node toolbox.cjs",
      reason: `${join(root, "apps", "toolbox", "dist", "toolbox.cjs")} not built`,
    },
    {
      id: "core-plugin",
      label: "plugin on @executa/core",
      reason: `${join(root, "packages", "core", "dist", "index.js")} not built (pnpm --filter @executa/core build)`,
    },
    {
      id: "dto-plugin",
      label: "decorated DTO plugin",
      reason: `${join(benchDir, "subjects", "dist", "dto-plugin.cjs")} not built${subjects}`,
    },
  ]);
});
