/**
 * Whether the tests run under CI: env `CI` set to anything but "false" (as GitHub Actions
 * and most CI services set it). There a missing prerequisite fails the tests it gates.
 */
export function onCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.CI) && env.CI?.toLowerCase() !== "false";
}

/**
 * The `skipIf` condition for tests that need a prerequisite (a built dist, a tool on PATH):
 * true only off CI when it is missing. Under CI it is false, so the tests run and
 * {@link requirePrerequisite} in their `beforeAll` fails them, saying what to build.
 *
 * @example describe.skipIf(skipWithout(coreBuilt))("…", () => { beforeAll(() => requirePrerequisite(coreBuilt, "…")); … });
 */
export function skipWithout(available: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  return !available && !onCi(env);
}

/** Throws `missing` (what is missing and how to get it) unless the prerequisite is available. */
export function requirePrerequisite(available: boolean, missing: string): void {
  if (!available) throw new Error(`${missing} (tests never skip a missing prerequisite under CI)`);
}
