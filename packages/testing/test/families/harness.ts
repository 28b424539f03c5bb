import { afterEach, expect, inject } from "vitest";
import {
  expectSuccess,
  type PluginTestClient,
  type RunBinaryOptions,
  runBinary,
  runInProcess,
} from "../../src/index.js";
import { FamilyProbe, type Outcome, type Step } from "./fixtures/family-probe.js";

/** The two ways each family is driven: the class in this process, and its bundle as a child over pipes. */
export const MODES = ["in-process", "child process"] as const;
export type Mode = (typeof MODES)[number];

/** A started probe plugin. */
export interface Probe {
  readonly client: PluginTestClient;
  /** Makes `steps` in one invoke and returns each step's outcome. */
  run(...steps: Step[]): Promise<Outcome[]>;
}

/**
 * Registers the hooks of a family test file (every started plugin closed after each test)
 * and returns `start`. The probe's bundle is built once per run by ./probe-setup.ts.
 */
export function useProbe(): (mode: Mode, options?: RunBinaryOptions) => Promise<Probe> {
  const bundle = inject("familyProbeBundle");
  const open: PluginTestClient[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close({ graceMs: 500 })));
  });
  return async (mode, options = {}) => {
    const client =
      mode === "in-process"
        ? await runInProcess(FamilyProbe, options)
        : await runBinary(process.execPath, [bundle], options);
    open.push(client);
    return {
      client,
      async run(...steps) {
        const answer = await client.invoke<{ outcomes: Outcome[] }>("run", { steps });
        const { outcomes } = expectSuccess(answer);
        expect(outcomes).toHaveLength(steps.length);
        return outcomes;
      },
    };
  };
}

/** The value of a step that succeeded (fails the test, showing the error, otherwise). */
// biome-ignore lint/suspicious/noExplicitAny: outcomes are inspected freely
export function ok(outcome: Outcome | undefined): any {
  if (!outcome?.ok) expect.fail(`expected success, got ${JSON.stringify(outcome)}`);
  return outcome.value;
}

/** The error of a step that failed with `code` (and, when given, the client's error class `name`). */
export function failed(
  outcome: Outcome | undefined,
  code: number,
  name?: string,
): Extract<Outcome, { ok: false }> {
  if (outcome === undefined || outcome.ok)
    expect.fail(`expected error ${code}, got ${JSON.stringify(outcome)}`);
  expect({ code: outcome.code, ...(name ? { name: outcome.name } : {}) }).toEqual({
    code,
    ...(name ? { name } : {}),
  });
  return outcome;
}
