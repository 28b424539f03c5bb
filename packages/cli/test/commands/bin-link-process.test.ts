import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { requireBuiltCli, runProcess } from "../helpers/cli.js";

const ROOT = resolve(import.meta.dirname, "../../../..");
const BIN = resolve(import.meta.dirname, "../../bin/executa.cjs");

beforeAll(requireBuiltCli);

describe("the executa bin in the workspace", () => {
  // pnpm links a workspace bin at install time only if its file exists then: the bin is a
  // committed launcher, so a fresh clone's first install links it before any build.
  it.each(["", "apps/weather", "apps/storage", "apps/toolbox"])(
    "is linked where the README runs it: %s",
    async (dir) => {
      const run = await runProcess(join(ROOT, dir, "node_modules/.bin/executa"), ["--help"], {
        cwd: join(ROOT, dir),
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("Usage: executa");
    },
  );

  it("says how to build the CLI when it is not built yet", async () => {
    const dir = await mkdtemp(join(tmpdir(), "executa-bin-"));
    try {
      await mkdir(join(dir, "bin"));
      await copyFile(BIN, join(dir, "bin/executa.cjs"));
      const run = await runProcess(process.execPath, [join(dir, "bin/executa.cjs"), "--help"], { cwd: dir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("the CLI is not built yet");
      expect(run.stderr).toContain("pnpm build");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
