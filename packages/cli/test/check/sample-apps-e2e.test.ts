import { accessSync, constants, existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runConformance } from "@executa/host";
import { describe, it } from "vitest";
import { requirePrerequisite, skipWithout } from "../../../../tooling/test-support/src/prerequisite.js";
import { expectVerdicts } from "../helpers/report.js";

const appsDir = fileURLToPath(new URL("../../../../apps", import.meta.url));

interface SampleBinary {
  app: string;
  binary: string;
}

/** The sample apps' executables for this machine, named by the `dist/executa.json` each build writes. */
function sampleBinaries(): SampleBinary[] {
  if (!existsSync(appsDir)) return [];
  const found: SampleBinary[] = [];
  for (const app of readdirSync(appsDir).sort()) {
    const executaJson = join(appsDir, app, "dist", "executa.json");
    if (!existsSync(executaJson)) continue;
    const written = JSON.parse(readFileSync(executaJson, "utf8")) as {
      distribution?: { profiles?: { binary?: { executable_name?: string } } };
    };
    const name = written.distribution?.profiles?.binary?.executable_name;
    if (!name) continue;
    const binary = join(dirname(executaJson), process.platform === "win32" ? `${name}.exe` : name);
    try {
      accessSync(binary, constants.X_OK);
    } catch {
      continue;
    }
    found.push({ app, binary });
  }
  return found;
}

const binaries = sampleBinaries();

describe("executa check on the sample apps' binaries", () => {
  const appsBuilt = binaries.length > 0;
  if (!appsBuilt) {
    it.skipIf(skipWithout(appsBuilt))("needs the sample apps' binaries", () => {
      requirePrerequisite(appsBuilt, "no apps/*/dist binary found: run `pnpm build` first");
    });
  }

  for (const { app, binary } of binaries) {
    it(`apps/${app}: every check passes`, { timeout: 60_000 }, async () => {
      const report = await runConformance(binary, [], { cwd: dirname(binary) });
      expectVerdicts(report, {});
    });
  }
});
