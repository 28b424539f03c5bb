import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** @typedef {import("./publint-check.mjs").Finding} Finding */

/**
 * Each attw problem kind: its rule name (as `--ignore-rules` spells it) and what it means.
 *
 * @type {Record<string, [string, string]>}
 */
const PROBLEMS = {
  NoResolution: ["no-resolution", "the import failed to resolve to type declarations or JavaScript files"],
  UntypedResolution: ["untyped-resolution", "the import resolved to JavaScript files without types"],
  FalseCJS: ["false-cjs", "the types are CommonJS but the JavaScript is ESM"],
  FalseESM: ["false-esm", "the types are ESM but the JavaScript is CommonJS"],
  CJSResolvesToESM: ["cjs-resolves-to-esm", "a require() resolves to an ES module"],
  FallbackCondition: ["fallback-condition", "resolution used a fallback condition"],
  CJSOnlyExportsDefault: ["cjs-only-exports-default", "the CommonJS module only exports a default"],
  NamedExports: ["named-exports", "named exports in the types are missing from the JavaScript"],
  FalseExportDefault: ["false-export-default", "the types declare a default export the JavaScript lacks"],
  MissingExportEquals: ["missing-export-equals", "the types lack an `export =` the JavaScript has"],
  UnexpectedModuleSyntax: ["unexpected-module-syntax", "a file uses module syntax its format forbids"],
  InternalResolutionError: ["internal-resolution-error", "an import inside the types failed to resolve"],
};

/**
 * Resolution modes whose problems are reported but do not fail the check. `node10` is
 * TypeScript's `moduleResolution: "node"`, which ignores `exports`: the packages require
 * Node.js >= 20.19, whose resolution honours `exports`, and their root entries still
 * resolve there through `main`/`types`; only subpath entries (`/internal`, `/local`,
 * `/register`) cannot, short of a `typesVersions` shim. attw's `node16` profile makes the
 * same call.
 */
const ACCEPTED_RESOLUTIONS = new Map([
  ["node10", "TypeScript's node10 resolution ignores `exports`; the packages need Node.js >= 20.19"],
]);

/** Single problems accepted on purpose, each with the reason. */
const ACCEPTED_PROBLEMS = [
  {
    package: "@executa/bundler",
    entrypoint: "./register",
    kind: "CJSResolvesToESM",
    reason:
      "ESM only by design (module.register hooks for `node --import`); Node.js >= 20.19 can require() it too",
  },
];

/** The attw executable of the workspace root's devDependency. */
function attwBin() {
  const require = createRequire(join(import.meta.dirname, "..", "..", "..", "package.json"));
  const manifest = require.resolve("@arethetypeswrong/cli/package.json");
  return join(dirname(manifest), require(manifest).bin.attw);
}

/**
 * Why a problem is accepted, or undefined when it counts.
 *
 * @param {string} packageName
 * @param {Record<string, any>} problem
 */
function acceptance(packageName, problem) {
  const byResolution = problem.resolutionKind && ACCEPTED_RESOLUTIONS.get(problem.resolutionKind);
  if (byResolution) return byResolution;
  return ACCEPTED_PROBLEMS.find(
    (accepted) =>
      accepted.package === packageName &&
      accepted.entrypoint === problem.entrypoint &&
      accepted.kind === problem.kind,
  )?.reason;
}

/**
 * One line for a problem: what, where, under which resolution, and attw's page on it.
 *
 * @param {Record<string, any>} problem
 */
function describe(problem) {
  const [rule, summary] = PROBLEMS[problem.kind] ?? [problem.kind, "see attw's documentation"];
  const where = [
    problem.entrypoint && `entry "${problem.entrypoint}"`,
    problem.resolutionKind && `resolution ${problem.resolutionKind}`,
    problem.typesFileName &&
      `types ${problem.typesFileName.replace(/^\/node_modules\/(@[^/]+\/)?[^/]+\//, "")}`,
    problem.implementationFileName &&
      `js ${problem.implementationFileName.replace(/^\/node_modules\/(@[^/]+\/)?[^/]+\//, "")}`,
  ].filter(Boolean);
  const docs = `https://github.com/arethetypeswrong/arethetypeswrong.github.io/blob/main/docs/problems/${problem.kind}.md`;
  return `${rule}: ${summary} (${where.join(", ")}) ${docs}`;
}

/**
 * Checks the types of the packed tarball with @arethetypeswrong/cli under every resolution
 * mode (node10, node16 from CJS and from ESM, bundler).
 *
 * @param {string} tarball
 * @param {string} packageName
 * @returns {Finding[]}
 */
export function runAttw(tarball, packageName) {
  // --no-definitely-typed: nothing is fetched from the registry.
  const args = [attwBin(), tarball, "--format", "json", "--no-definitely-typed", "--no-color"];
  const result = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  let output;
  try {
    output = JSON.parse(result.stdout);
  } catch {
    const detail = (result.stderr || result.stdout || String(result.error)).trim();
    return [{ tool: "attw", level: "error", message: `attw did not run (exit ${result.status}): ${detail}` }];
  }
  // attw has nothing to check (and exits 0) when no type declarations are packed.
  if (output.analysis.types === false) {
    return [{ tool: "attw", level: "error", message: "the package publishes no type declarations" }];
  }
  return (output.analysis.problems ?? []).map((/** @type {Record<string, any>} */ problem) => {
    const reason = acceptance(packageName, problem);
    const message = describe(problem);
    return reason
      ? { tool: "attw", level: "accepted", message: `${message} — accepted: ${reason}` }
      : { tool: "attw", level: "error", message };
  });
}
