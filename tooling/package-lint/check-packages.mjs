#!/usr/bin/env node
/**
 * Checks that packages are publishable as packed: each is packed with `pnpm pack` into a
 * temporary folder, and the tarball is linted with publint, with @arethetypeswrong/cli
 * (types under every module resolution) and with this script's own package.json and README
 * checks.
 *
 *   node tooling/package-lint/check-packages.mjs [--strict] [package-dir...]
 *
 * Without folders, every non-private package under packages/ is checked. Exits 1 when a
 * package has an error (with --strict, a warning too), 2 on wrong usage.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { runAttw } from "./lib/attw-check.mjs";
import { checkManifest } from "./lib/manifest-check.mjs";
import { packPackage } from "./lib/pack.mjs";
import { runPublint } from "./lib/publint-check.mjs";
import { checkReadme } from "./lib/readme-check.mjs";
import { fails, formatPackage, formatSummary } from "./lib/report.mjs";

const ROOT = resolve(import.meta.dirname, "..", "..");

/** The workspace's publishable packages: packages/* that are not private. */
function workspacePackages() {
  const base = join(ROOT, "packages");
  return readdirSync(base, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(base, entry.name))
    .filter((dir) => {
      try {
        return !JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private;
      } catch {
        return false;
      }
    });
}

/**
 * The text of the README a package publishes ("" when it publishes none).
 *
 * @param {string} dir
 * @param {string[]} files
 */
function readmeOf(dir, files) {
  const readme = files.find((file) => /^readme(\.|$)/i.test(file));
  return readme === undefined ? "" : readFileSync(join(dir, readme), "utf8");
}

/**
 * Packs one package and runs every check on the tarball.
 *
 * @param {string} dir
 * @param {string} destination
 * @returns {Promise<import("./lib/report.mjs").PackageReport>}
 */
async function checkPackage(dir, destination) {
  const shown = relative(process.cwd(), dir) || ".";
  let packed;
  try {
    packed = packPackage(dir, destination);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      label: "(not packed)",
      dir: shown,
      fileCount: 0,
      findings: [{ tool: "pack", level: "error", message }],
    };
  }
  const { findings: publintFindings, pkg } = await runPublint(packed.tarball);
  const findings = [
    ...publintFindings,
    ...runAttw(packed.tarball, packed.name),
    ...checkManifest(pkg, packed.files),
    ...checkReadme(pkg, readmeOf(dir, packed.files)),
  ];
  return { label: `${packed.name}@${packed.version}`, dir: shown, fileCount: packed.files.length, findings };
}

async function main() {
  const args = process.argv.slice(2);
  const strict = args.includes("--strict");
  const unknown = args.filter((arg) => arg.startsWith("-") && arg !== "--strict");
  if (unknown.length > 0) {
    process.stderr.write(`check-packages: unknown option ${unknown.join(", ")}\n`);
    return 2;
  }
  const named = args.filter((arg) => !arg.startsWith("-")).map((dir) => resolve(dir));
  const dirs = named.length > 0 ? named : workspacePackages();
  const destination = mkdtempSync(join(tmpdir(), "executa-pack-"));
  try {
    const reports = [];
    for (const dir of dirs) {
      const report = await checkPackage(dir, destination);
      process.stdout.write(`${formatPackage(report, strict)}\n`);
      reports.push(report);
    }
    process.stdout.write(`\n${formatSummary(reports, strict)}\n`);
    return reports.some((report) => fails(report, strict)) ? 1 : 0;
  } finally {
    rmSync(destination, { recursive: true, force: true });
  }
}

process.exitCode = await main();
