// `pnpm test` and the `pnpm test:<tier>` commands: runs the named tiers (every tier when none
// is named) as `testPlan` orders them: the unit tier before anything is built, then the
// packages and apps built, then the other tiers in one vitest run, so that both workers stay
// busy until the last file ends.
//
// Usage: node tooling/test-tiers/run.mjs [tier ...] [vitest options, each starting with -]
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { BUILDS, TIERS, testPlan } from "./tiers.mjs";

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

let failed = false;
for (const step of testPlan(chosen)) {
  if ("build" in step) {
    if (!run("pnpm", BUILDS[step.build])) process.exit(1);
  } else {
    const projects = step.tiers.flatMap((name) => ["--project", name]);
    if (!run("npx", ["vitest", "run", ...projects, ...vitestOptions])) failed = true;
  }
}
process.exit(failed ? 1 : 0);
