import { join, resolve } from "node:path";

const PROFILE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The default dev profile. */
export const DEFAULT_PROFILE = "default";

/**
 * Where a dev profile keeps the local providers' state (storage database, file blobs):
 * `<cwd>/.executa/dev/<profile>`. Profiles keep separate data, e.g. a clean one for a demo.
 *
 * @throws Error for a profile name that is not a plain folder name.
 */
export function devDataDir(cwd: string, profile = DEFAULT_PROFILE): string {
  if (!PROFILE.test(profile)) {
    throw new Error(`profile "${profile}" must be letters, digits, ".", "_" or "-" (it names a folder)`);
  }
  return join(resolve(cwd), ".executa", "dev", profile);
}
