// Rewrites durations.json from vitest's results cache (node_modules/.vite/vitest/*/results.json,
// which every run updates): after a run of the tiers whose figures changed, e.g. `pnpm test`,
// run `node tooling/test-tiers/refresh-durations.mjs` and commit the table. Given a file (the
// output of a run, e.g. a CI log), the figures are read from it instead.
//
// Usage: node tooling/test-tiers/refresh-durations.mjs [log]
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DURATIONS_FILE, durationsFromLog, mergeDurations, readDurations } from "./durations.mjs";
import { TIERS } from "./tiers.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cacheRoot = join(root, "node_modules", ".vite", "vitest");

const inTier = (project) => TIERS.some((tier) => tier.name === project);
const log = process.argv[2];

/** Each file's duration in the results caches (keyed `project:path`): passing runs in a tier only. */
function fromResultsCache() {
  const measured = {};
  for (const dir of existsSync(cacheRoot) ? readdirSync(cacheRoot) : []) {
    const file = join(cacheRoot, dir, "results.json");
    if (!existsSync(file)) continue;
    for (const [key, result] of JSON.parse(readFileSync(file, "utf8")).results ?? []) {
      const [project, path] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
      if (inTier(project) && !result.failed && result.duration > 0) measured[path] = result.duration;
    }
  }
  return measured;
}

const measured = log ? durationsFromLog(readFileSync(log, "utf8"), inTier) : fromResultsCache();
const table = mergeDurations(readDurations(), measured, (path) => existsSync(join(root, path)));
writeFileSync(DURATIONS_FILE, `${JSON.stringify(table, null, 2)}\n`);
console.log(
  `${DURATIONS_FILE}: ${Object.keys(table).length} files (${Object.keys(measured).length} measured)`,
);
