// `pnpm test` and the `pnpm test:<tier>` commands: runs the named tiers (every tier when none
// is named), lightest first, building only what each needs just before it: the unit tier
// runs before anything is built, the packages are built before the tiers that spawn them,
// the apps before the end-to-end tier. Consecutive tiers that need nothing more share one
// vitest run, so that both workers are kept busy across them.
//
// Usage: node tooling/test-tiers/run.mjs [tier ...] [vitest options, each starting with -]
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { BUILDS, TIERS } from "./tiers.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const args = process.argv.slice(2).filter((arg) => arg !== "--");
const names = args.filter((arg) => !arg.startsWith("-"));
const vitestOptions = args.filter((arg) => arg.startsWith("-"));
const unknown = names.filter((name) => !TIERS.some((tier) => tier.name === name));
if (unknown.length > 0) {
  console.error(`unknown tier ${unknown.join(", ")}: the tiers are ${TIERS.map((t) => t.name).join(", ")}`);
  process.exit(2);
}
const chosen = TIERS.filter((tier) => names.length === 0 || names.includes(tier.name));

/** Runs a command in the repository root, its output ours; returns whether it succeeded. */
function run(command, args) {
  console.log(`\n> ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    shell: process.platform === "win32",
  });
  return result.status === 0;
}

const built = new Set();
let failed = false;
for (let i = 0; i < chosen.length; ) {
  for (const need of chosen[i].needs.filter((n) => !built.has(n))) {
    if (!run("pnpm", BUILDS[need])) process.exit(1);
    built.add(need);
  }
  const group = [];
  while (i < chosen.length && chosen[i].needs.every((need) => built.has(need))) group.push(chosen[i++]);
  const projects = group.flatMap((tier) => ["--project", tier.name]);
  if (!run("npx", ["vitest", "run", ...projects, ...vitestOptions])) failed = true;
}
process.exit(failed ? 1 : 0);
