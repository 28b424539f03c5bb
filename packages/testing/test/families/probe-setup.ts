// Global setup of the process tier: the family probe bundled once per run (rather than once
// per family test file), its path provided to the family tests' harness.
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { buildFixture } from "../fixtures/build-fixture.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The family probe's bundle (`fixtures/family-main.ts`), built once per run. */
    familyProbeBundle: string;
  }
}

export default async function buildFamilyProbe(project: TestProject): Promise<() => void> {
  const bundle = await buildFixture(fileURLToPath(new URL("./fixtures/family-main.ts", import.meta.url)));
  project.provide("familyProbeBundle", bundle);
  return () => rmSync(dirname(bundle), { recursive: true, force: true });
}
