// Runs API Extractor for every packages/<p>/api-extractor*.json against the built
// dist/*.d.ts. `--local` (pnpm api) rewrites packages/<p>/api/*.api.md; without it
// (pnpm api:check) a report that differs from the build fails, as do new warnings.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";

const localBuild = process.argv.includes("--local");
const packages = fileURLToPath(new URL("../../packages/", import.meta.url));

const configs = readdirSync(packages).flatMap((name) =>
  readdirSync(join(packages, name))
    .filter((file) => /^api-extractor(\..+)?\.json$/.test(file))
    .map((file) => join(packages, name, file)),
);

const failed = [];
for (const path of configs) {
  const config = ExtractorConfig.loadFileAndPrepare(path);
  const result = Extractor.invoke(config, { localBuild, showVerboseMessages: false });
  const verdict = result.succeeded ? "ok" : "FAILED";
  const changed = result.apiReportChanged ? (localBuild ? ", report updated" : ", report out of date") : "";
  console.log(`${verdict}: ${config.packageJson?.name ?? path} (${path.slice(packages.length)})${changed}`);
  if (!result.succeeded) failed.push(path);
}
if (failed.length > 0) {
  console.error(
    localBuild
      ? `API Extractor failed for ${failed.length} config(s): build the packages first (pnpm build).`
      : `${failed.length} API report(s) out of date or with new warnings: run \`pnpm api\` after \`pnpm build\` and commit packages/*/api/.`,
  );
  process.exitCode = 1;
}
