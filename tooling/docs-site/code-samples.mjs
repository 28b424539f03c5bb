/**
 * The ```ts samples of the documentation, type-checked against the packages' sources the
 * way `pnpm typecheck` sees them. Each sample is its own module (so two samples may declare
 * the same names); what a sample needs but does not show goes above a `// ---cut---` line
 * (see markdown.mjs), which the site leaves out.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(import.meta.dirname, "../..");
const FENCE = /^(\s*)(`{3,}|~{3,})\s*(ts|typescript)(\s.*)?$/;

/**
 * @typedef {{ file: string, line: number, code: string }} Sample
 *   `line`: the 1-based line of the sample's first code line in `file`.
 * @typedef {{ file: string, line: number, message: string }} SampleProblem
 */

/** The ```ts (or ```typescript) blocks of one markdown text. */
export function samplesOf(file, markdown) {
  /** @type {Sample[]} */
  const samples = [];
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    const open = FENCE.exec(lines[index] ?? "");
    if (!open) continue;
    const closing = new RegExp(`^\\s*${open[2]?.[0] === "`" ? "`" : "~"}{${open[2]?.length},}\\s*$`);
    const end = lines.findIndex((line, at) => at > index && closing.test(line));
    const stop = end === -1 ? lines.length : end;
    samples.push({ file, line: index + 2, code: lines.slice(index + 1, stop).join("\n") });
    index = stop;
  }
  return samples;
}

/** The markdown files under `dir`, its build output and generated API reference left out. */
export function markdownFiles(dir) {
  const skip = new Set(["node_modules", "dist", "cache", "public"]);
  /** @type {string[]} */
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !skip.has(entry.name)) files.push(...markdownFiles(path));
    else if (entry.isFile() && entry.name.endsWith(".md")) files.push(path);
  }
  return files.sort();
}

/** The public entries of each package, mapped to their sources. */
const ENTRIES = {
  "@executa/decorators": { "@executa/decorators": "packages/decorators/src/index.ts" },
  "@executa/testing": { "@executa/testing": "packages/testing/src/index.ts" },
  "@executa/cli": { "@executa/cli": "packages/cli/src/index.ts" },
  "@executa/bundler": {
    "@executa/bundler": "packages/bundler/src/index.ts",
    "@executa/bundler/vite": "packages/bundler/src/vite/index.ts",
    "@executa/bundler/register": "packages/bundler/src/register/index.ts",
  },
  "@executa/core": {
    "@executa/core": "packages/core/src/index.ts",
    "@executa/core/capabilities": "packages/core/src/capabilities.ts",
    "@executa/core/reference": "packages/core/src/reference.ts",
  },
  "@executa/host": {
    "@executa/host": "packages/host/src/index.ts",
    "@executa/host/local": "packages/host/src/local/index.ts",
  },
};

/**
 * The root tsconfig's options, with the public entries of `packages` (and only theirs)
 * mapped to their sources: a sample importing another `@executa/*` package does not resolve,
 * as it would not in a project that depends on `packages` alone.
 *
 * @param {readonly string[]} packages
 */
function compilerOptions(packages) {
  const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const entries = packages.flatMap((name) => {
    const entry = ENTRIES[/** @type {keyof typeof ENTRIES} */ (name)];
    if (!entry) throw new Error(`no entries known for ${name}`);
    return Object.entries(entry).map(([specifier, path]) => [specifier, [path]]);
  });
  return {
    ...parsed.options,
    noEmit: true,
    baseUrl: ROOT,
    paths: {
      ...Object.fromEntries(entries),
      // Any other toolkit package: nowhere (the packages' node_modules below would find it).
      "@executa/*": ["docs/.samples/not-a-dependency/*"],
      // The packages' own dependencies (class-validator…) as an author's project has them.
      "*": ["packages/decorators/node_modules/*", "packages/bundler/node_modules/*"],
    },
  };
}

/** Where a sample lives for the compiler: beside the docs, so that node_modules resolve. */
function virtualPath(sample, index) {
  const name = relative(ROOT, sample.file).replace(/[^a-zA-Z0-9]+/g, "_");
  return join(ROOT, "docs", ".samples", `${name}_${sample.line}_${index}.ts`);
}

function problemOf(diagnostic, byPath) {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  const sample = diagnostic.file ? byPath.get(diagnostic.file.fileName) : undefined;
  if (!sample || diagnostic.file === undefined || diagnostic.start === undefined) {
    return { file: "(compiler)", line: 0, message };
  }
  const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return { file: relative(ROOT, sample.file), line: sample.line + line, message };
}

/**
 * Type-checks samples in one program that resolves the entries of `packages` only.
 * @param {Sample[]} samples
 * @param {readonly string[]} packages
 * @returns {SampleProblem[]}
 */
function typecheckAgainst(samples, packages) {
  const options = compilerOptions(packages);
  /** @type {Map<string, Sample>} */
  const byPath = new Map();
  /** @type {Map<string, string>} */
  const texts = new Map();
  samples.forEach((sample, index) => {
    const path = virtualPath(sample, index);
    byPath.set(path, sample);
    // A module even without imports, so that samples do not share a global scope.
    texts.set(path, `${sample.code}\nexport {};\n`);
  });
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (path) => texts.has(path) || fileExists.call(host, path);
  host.readFile = (path) => texts.get(path) ?? readFile.call(host, path);
  host.getSourceFile = (path, language, ...rest) => {
    const text = texts.get(path);
    return text === undefined
      ? getSourceFile.call(host, path, language, ...rest)
      : ts.createSourceFile(path, text, language, true);
  };
  const program = ts.createProgram([...texts.keys()], options, host);
  const diagnostics = [...texts.keys()].flatMap((path) => {
    const file = program.getSourceFile(path);
    return file ? [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)] : [];
  });
  return [...program.getOptionsDiagnostics(), ...diagnostics].map((d) => problemOf(d, byPath));
}

/**
 * The packages a page's samples may import besides a scaffolded project's: its front
 * matter's `dependencies` (`dependencies: [@executa/core]`, for a guide on a package the
 * scaffold does not depend on), and a package README's own package.
 * @param {string} file
 * @returns {string[]}
 */
export function extraDependenciesOf(file) {
  const text = readFileSync(file, "utf8");
  const declared = /^---\n[\s\S]*?^dependencies:\s*\[([^\]]*)\][\s\S]*?^---$/m.exec(text);
  const listed = declared
    ? declared[1].split(",").map((name) => name.trim().replace(/^["']|["']$/g, ""))
    : [];
  const own = /packages\/([a-z-]+)\/README\.md$/.exec(file.split("\\").join("/"));
  return [...listed.filter((name) => name !== ""), ...(own ? [`@executa/${own[1]}`] : [])];
}

/**
 * Type-checks every sample against the packages a scaffolded project depends on (with a
 * page's declared extra dependencies); answers the problems, each at its markdown file and line.
 * @param {Sample[]} samples
 * @param {readonly string[]} scaffoldPackages The `@executa/*` packages `executa new` depends on.
 * @returns {SampleProblem[]}
 */
export function typecheckSamples(samples, scaffoldPackages) {
  /** @type {Map<string, { packages: string[], samples: Sample[] }>} */
  const groups = new Map();
  for (const sample of samples) {
    const extra = existsSync(sample.file) ? extraDependenciesOf(sample.file) : [];
    const packages = [...new Set([...scaffoldPackages, ...extra])].sort();
    const key = packages.join(" ");
    const group = groups.get(key) ?? { packages, samples: [] };
    group.samples.push(sample);
    groups.set(key, group);
  }
  return [...groups.values()].flatMap((group) => typecheckAgainst(group.samples, group.packages));
}

/** The samples of every markdown file under `dir` (default: the site's `docs/`). */
export function siteSamples(dir = join(ROOT, "docs")) {
  return markdownFiles(dir).flatMap((file) => samplesOf(file, readFileSync(file, "utf8")));
}

/** The samples of the site and of the READMEs that point to it (the root's and each package's). */
export function documentationSamples() {
  const packages = readdirSync(join(ROOT, "packages")).map((name) =>
    join(ROOT, "packages", name, "README.md"),
  );
  const readmes = [join(ROOT, "README.md"), ...packages].filter((file) => existsSync(file));
  return [...siteSamples(), ...readmes.flatMap((file) => samplesOf(file, readFileSync(file, "utf8")))];
}
