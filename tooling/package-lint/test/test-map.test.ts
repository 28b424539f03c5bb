import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { TIERS } from "../../test-tiers/tiers.mjs";

const repo = fileURLToPath(new URL("../../../", import.meta.url))
  .split("\\")
  .join("/");

const PACKAGES = ["core", "decorators", "bundler", "cli", "host", "testing"] as const;
const SECTION = "## Where the tests are";

/** One row of a package's test map: a module (or a `src/` folder, ending in `/`) and where its tests are. */
interface MapRow {
  readonly module: string;
  readonly tests: readonly string[];
}

/** A package as the check sees it. Paths are relative to the package, with `/`. */
interface PackageFacts {
  readonly name: string;
  readonly root: string;
  readonly readme: string;
  /** Every `src/**\/*.ts` file but declaration files, barrels included, with its text. */
  readonly sources: ReadonlyMap<string, string>;
  readonly modules: readonly string[];
  readonly testFiles: readonly string[];
  readonly rows: readonly MapRow[];
}

/** A module across packages: its path from the repository root, `packages/core/src/rpc/peer.ts`. */
type ModuleId = string;

/** Every file under `dir`, as paths relative to it with `/` separators. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((file) => file.split("\\").join("/"))
    .filter((file) => statSync(join(dir, file)).isFile())
    .sort();
}

const parsed = new Map<string, ts.SourceFile>();

function parse(text: string): ts.SourceFile {
  let file = parsed.get(text);
  if (!file) {
    file = ts.createSourceFile("module.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    parsed.set(text, file);
  }
  return file;
}

const specifiers = new Map<string, string[]>();

/** The specifiers of a file's imports, `export … from`, `import(…)`, `require(…)` and `vi.mock(…)`. */
function specifiersOf(text: string): string[] {
  let found = specifiers.get(text);
  if (!found) {
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const mocked = [...text.matchAll(/\bvi\.(?:mock|doMock)\s*\(\s*["']([^"']+)["']/g)].map(
      (match) => match[1]!,
    );
    found = [...importedFiles.map((file) => file.fileName), ...mocked];
    specifiers.set(text, found);
  }
  return found;
}

/** A file that only re-exports (`export … from "…"`) and has comments: no code of its own. */
function isPureBarrel(text: string): boolean {
  return parse(text).statements.every(
    (statement) => ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined,
  );
}

function moduleBase(module: string): string {
  return basename(module, ".ts");
}

/** A test named after the module: `test/**\/foo.test.ts` or `test/**\/foo.*.test.ts` for `src/…/foo.ts`. */
/** The end of a test file's name that places it in a tier (`-process.test.ts`): not part of its name. */
const TIER_SUFFIX = new RegExp(`-(?:${TIERS.map((tier) => tier.name).join("|")})\\.test\\.ts$`);

function findableByName(module: string, testFiles: readonly string[]): boolean {
  const base = moduleBase(module);
  return testFiles.some((file) => {
    const name = basename(file).replace(TIER_SUFFIX, ".test.ts");
    return name === `${base}.test.ts` || (name.startsWith(`${base}.`) && name.endsWith(".test.ts"));
  });
}

/** The backquoted paths of one table cell. */
function cellPaths(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

/** The rows of the table in the README's test-map section (header and separator rows skipped). */
function mapRows(readme: string): MapRow[] {
  const start = readme.indexOf(`\n${SECTION}\n`);
  if (start < 0) return [];
  const section = readme.slice(start + SECTION.length + 2).split(/\n## /)[0]!;
  return section
    .split("\n")
    .filter((line) => line.trim().startsWith("|"))
    .map((line) => line.trim().slice(1, -1).split("|"))
    .filter((cells) => cells.length === 2 && cellPaths(cells[0]!).length === 1)
    .map(([moduleCell, testsCell]) => ({ module: cellPaths(moduleCell!)[0]!, tests: cellPaths(testsCell!) }));
}

function packageFacts(name: string): PackageFacts {
  const root = `${repo}packages/${name}/`;
  // The map is for contributors, so it lives in test/README.md, which is not published.
  const readmePath = join(root, "test", "README.md");
  const text = existsSync(readmePath) ? readFileSync(readmePath, "utf8") : "";
  const sources = new Map(
    filesUnder(join(root, "src"))
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
      .map((file) => [`src/${file}`, readFileSync(join(root, "src", file), "utf8")] as const),
  );
  const modules = [...sources.keys()].filter(
    (file) => basename(file) !== "index.ts" || !isPureBarrel(sources.get(file)!),
  );
  return {
    name,
    root,
    readme: `packages/${name}/test/README.md`,
    sources,
    modules,
    testFiles: filesUnder(join(root, "test")).map((file) => `test/${file}`),
    rows: mapRows(text),
  };
}

const facts = new Map<string, PackageFacts>(PACKAGES.map((name) => [name, packageFacts(name)]));

function moduleId(pkg: PackageFacts, module: string): ModuleId {
  return `packages/${pkg.name}/${module}`;
}

function splitId(id: ModuleId): { pkg: PackageFacts; module: string } {
  const [, name, ...rest] = id.split("/");
  return { pkg: facts.get(name!)!, module: rest.join("/") };
}

/** A relative specifier in `from` (a source file) as the source file it names, if it is one. */
function resolveSource(pkg: PackageFacts, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const path = posix.join(posix.dirname(from), specifier);
  return [path.replace(/\.js$/, ".ts"), `${path}.ts`, `${path}/index.ts`].find((file) =>
    pkg.sources.has(file),
  );
}

/** The source files of its own package a file's `import` and `export … from` statements name. */
function dependencies(pkg: PackageFacts, file: string): string[] {
  return specifiersOf(pkg.sources.get(file) ?? "")
    .map((specifier) => resolveSource(pkg, file, specifier))
    .filter((target): target is string => target !== undefined);
}

/**
 * The modules of its own package `file` loads. A file that only re-exports (a barrel,
 * `internal.ts`) is seen through: who imports it imports what it re-exports.
 */
function loadedModules(pkg: PackageFacts, file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  return dependencies(pkg, file).flatMap((target) =>
    isPureBarrel(pkg.sources.get(target) ?? "") ? loadedModules(pkg, target, seen) : [target],
  );
}

function isExported(statement: ts.Statement): boolean {
  return (
    ts.canHaveModifiers(statement) &&
    (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
  );
}

function declaredNames(statement: ts.Statement): string[] {
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((declaration) =>
      ts.isIdentifier(declaration.name) ? [declaration.name.text] : [],
    );
  }
  const { name } = statement as { name?: ts.Node };
  return name && ts.isIdentifier(name) ? [name.text] : [];
}

/** The names a module exports by declaration (`export function|class|const|interface|type|enum NAME`). */
function exportedNames(text: string): string[] {
  return parse(text).statements.filter(isExported).flatMap(declaredNames);
}

/** The names a file imports or re-exports from another package's entry, by that package's name. */
function namesFromPackages(text: string): [string, string][] {
  return parse(text).statements.flatMap((statement): [string, string][] => {
    const isLink = ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement);
    const specifier = isLink && statement.moduleSpecifier;
    const entry = specifier && ts.isStringLiteral(specifier) && specifier.text.match(/^@executa\/([\w-]+)/);
    if (!entry) return [];
    const bindings = ts.isImportDeclaration(statement)
      ? statement.importClause?.namedBindings
      : (statement as ts.ExportDeclaration).exportClause;
    if (!bindings || !(ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) return [];
    return bindings.elements.map((element) => [entry[1]!, (element.propertyName ?? element.name).text]);
  });
}

/** The modules of other packages `file` imports by name through their entries (`@executa/core/internal`). */
function packageImports(pkg: PackageFacts, file: string): ModuleId[] {
  return namesFromPackages(pkg.sources.get(file) ?? "").flatMap(([name, imported]) => {
    const from = name === pkg.name ? undefined : facts.get(name);
    if (!from) return [];
    return from.modules
      .filter((module) => exportedNames(from.sources.get(module)!).includes(imported))
      .map((module) => moduleId(from, module));
  });
}

/** For every module of the packages, the modules that load it, in its package or through another's entry. */
function importersOf(): Map<ModuleId, ModuleId[]> {
  const importers = new Map<ModuleId, ModuleId[]>();
  for (const pkg of facts.values()) {
    for (const module of pkg.modules.filter((file) => !isPureBarrel(pkg.sources.get(file)!))) {
      const id = moduleId(pkg, module);
      const loaded = [
        ...loadedModules(pkg, module).map((target) => moduleId(pkg, target)),
        ...packageImports(pkg, module),
      ];
      for (const target of new Set(loaded)) {
        if (target !== id) importers.set(target, [...(importers.get(target) ?? []), id]);
      }
    }
  }
  return importers;
}

const importers = importersOf();

/** The module and every module that loads it, directly or not: a test of any of them runs it. */
function testedThrough(id: ModuleId): Set<ModuleId> {
  const found = new Set([id]);
  for (const current of found) for (const importer of importers.get(current) ?? []) found.add(importer);
  return found;
}

/** The row that maps `module`: its own row, else the row of the deepest folder holding it. */
function rowFor(module: string, rows: readonly MapRow[]): MapRow | undefined {
  const own = rows.find((row) => row.module === module);
  if (own) return own;
  return rows
    .filter((row) => row.module.endsWith("/") && module.startsWith(row.module))
    .sort((a, b) => b.module.length - a.module.length)[0];
}

/** The modules that rely on the map: not findable by name. */
function mappedModules(pkg: PackageFacts): string[] {
  return pkg.modules.filter((module) => !findableByName(module, pkg.testFiles));
}

const MODULE_PATH = /^src\//;
/** Tests are the package's own, or (for a module tested from a sibling package) `../<package>/test/…`. */
const TEST_PATH = /^(?:\.\.\/[\w-]+\/)?test\//;

/** A map path must exist, be a folder exactly when it ends in `/`, and sit where it belongs. */
function pathProblem(pkg: PackageFacts, path: string, pattern: RegExp): string | undefined {
  if (!pattern.test(path)) return `${path} is not under ${pattern === MODULE_PATH ? "src/" : "test/"}`;
  const full = join(pkg.root, path);
  if (!existsSync(full)) return `${path} does not exist`;
  const isFolder = statSync(full).isDirectory();
  if (path.endsWith("/") !== isFolder) return `${path} is a ${isFolder ? "folder (end it with /)" : "file"}`;
  return undefined;
}

function rowPathProblems(pkg: PackageFacts, row: MapRow): string[] {
  const problems = [
    pathProblem(pkg, row.module, MODULE_PATH),
    ...row.tests.map((test) => pathProblem(pkg, test, TEST_PATH)),
    row.tests.length === 0 ? "no test paths" : undefined,
  ];
  return problems
    .filter((problem): problem is string => problem !== undefined)
    .map((problem) => `${pkg.readme} row \`${row.module}\`: ${problem}`);
}

/** What a module is called in a specifier: its name, or its folder's for `…/index.ts`. */
function moduleKey(module: string): string {
  const base = moduleBase(module);
  return base === "index" ? basename(module.slice(0, -"/index.ts".length)) : base;
}

function withoutExtension(path: string): string {
  return path.replace(/\.(?:[cm]?js|[cm]?ts)$/, "").replace(/\/index$/, "");
}

/**
 * The specifier names the module: a relative one resolves to it, the package's name is its
 * `src/index.ts`, a subpath entry (`@executa/host/local`) is named after it.
 */
function specifierNames(testFile: string, specifier: string, id: ModuleId): boolean {
  const { pkg, module } = splitId(id);
  if (specifier.startsWith(".")) {
    return withoutExtension(posix.join(posix.dirname(testFile), specifier)) === withoutExtension(repo + id);
  }
  if (specifier === `@executa/${pkg.name}`) return module === "src/index.ts";
  const entry = specifier.match(new RegExp(`^@executa/${pkg.name}/(.+)$`));
  return entry !== null && basename(withoutExtension(entry[1]!)) === moduleKey(module);
}

const words = new Map<string, Set<string>>();

/** The identifiers (and other words) of a text, to look names up in. */
function wordsOf(text: string): Set<string> {
  let found = words.get(text);
  if (!found) {
    found = new Set(text.match(/[A-Za-z_$][\w$]*/g));
    words.set(text, found);
  }
  return found;
}

/** The test runs the module's build output (`dist/…/cli.js` for `src/cli.ts`), as process tests do. */
function runsBuildOf(testText: string, module: string): boolean {
  return new RegExp(`\\bdist/(?:[\\w.-]+/)*${moduleKey(module)}\\.[cm]?js\\b`).test(testText);
}

/**
 * A test (absolute path, text) touches a module when it imports it, names one of its
 * exports, or runs its build output.
 */
function touches(testFile: string, testText: string, id: ModuleId): boolean {
  const { pkg, module } = splitId(id);
  const specifiers = specifiersOf(testText);
  return (
    specifiers.some((specifier) => specifierNames(testFile, specifier, id)) ||
    exportedNames(pkg.sources.get(module) ?? "").some((name) => wordsOf(testText).has(name)) ||
    runsBuildOf(testText, module)
  );
}

/** The files of a row's tests (absolute paths): the listed files, and every file inside the listed folders. */
function rowTestFiles(pkg: PackageFacts, row: MapRow): string[] {
  return row.tests
    .map((test) => posix.join(pkg.root, test))
    .flatMap((test) => (test.endsWith("/") ? filesUnder(test).map((file) => posix.join(test, file)) : [test]))
    .filter((file) => /\.[cm]?[jt]s$/.test(file) && existsSync(file));
}

/** The modules a row vouches for: its own module, or the unnamed modules whose nearest row it is. */
function modulesOfRow(pkg: PackageFacts, row: MapRow): string[] {
  if (!row.module.endsWith("/")) return [row.module];
  return mappedModules(pkg).filter((module) => rowFor(module, pkg.rows) === row);
}

/** A test helper a test file imports: a relative specifier to a file in a `test/` folder. */
function testHelper(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const path = posix.join(posix.dirname(from), specifier);
  const candidates = [path, path.replace(/\.js$/, ".ts"), `${path}.ts`];
  return candidates.find((file) => file.includes("/test/") && existsSync(file) && statSync(file).isFile());
}

/** The test file and the test helpers it imports, directly or not: the code the test runs as its own. */
function withHelpers(file: string): string[] {
  const found = new Set([file]);
  for (const current of found) {
    for (const specifier of specifiersOf(readFileSync(current, "utf8"))) {
      const helper = testHelper(current, specifier);
      if (helper) found.add(helper);
    }
  }
  return [...found];
}

function rowReaches(pkg: PackageFacts, row: MapRow, module: string): boolean {
  const through = [...testedThrough(moduleId(pkg, module))];
  return rowTestFiles(pkg, row)
    .flatMap(withHelpers)
    .some((file) => {
      const text = readFileSync(file, "utf8");
      return through.some((id) => touches(file, text, id));
    });
}

function untestedByRow(pkg: PackageFacts, row: MapRow): string[] {
  return modulesOfRow(pkg, row)
    .filter((module) => pkg.sources.has(module) && !rowReaches(pkg, row, module))
    .map(
      (module) =>
        `${pkg.readme} row \`${row.module}\`: no listed test imports ${module}, uses its exports, or does either for a module that loads it`,
    );
}

function unfindable(pkg: PackageFacts): string[] {
  return mappedModules(pkg)
    .filter((module) => rowFor(module, pkg.rows) === undefined)
    .map(
      (module) =>
        `packages/${pkg.name}/${module}: no test/**/${moduleBase(module)}.test.ts and no row under "${SECTION}" in ${pkg.readme}`,
    );
}

// A newcomer looking for a module's tests finds them by the module's name, or in the
// package's test map (test/README.md). The map is checked against the tree so that it cannot rot:
// its paths exist, and each row's tests (with the test helpers they import) reach the
// module: they import it, use its exports or run its build output, or do so for a module
// that loads it, in its package or through another's entry (the module is tested through
// that one).
describe("test map", () => {
  it("reads the map, barrels and names as intended (the check's own test)", () => {
    const readme = `# x\n\n${SECTION}\n\nText.\n\n| module | tested in |\n| --- | --- |\n| \`src/a/b.ts\` | \`test/a.test.ts\`, \`test/c/\` |\n| \`src/d/\` | \`test/d/\` |\n\n## Next\n\n| \`src/e.ts\` | \`test/e.test.ts\` |\n`;
    expect(mapRows(readme)).toEqual([
      { module: "src/a/b.ts", tests: ["test/a.test.ts", "test/c/"] },
      { module: "src/d/", tests: ["test/d/"] },
    ]);
    expect(rowFor("src/d/x/y.ts", mapRows(readme))?.module).toBe("src/d/");
    expect(
      isPureBarrel('/** Doc. */\nexport { a, type B } from "./a.js";\nexport type * from "./b.js";\n'),
    ).toBe(true);
    expect(isPureBarrel('export { a } from "./a.js";\nexport const b = 1;\n')).toBe(false);
    expect(findableByName("src/rpc/peer.ts", ["test/x/peer.pacing.test.ts"])).toBe(true);
    expect(findableByName("src/rpc/peer.ts", ["test/x/peer-pacing.test.ts"])).toBe(false);
    expect(findableByName("src/rpc/peer.ts", ["test/x/peer-process.test.ts"])).toBe(true);
    const peer = "packages/core/src/rpc/peer.ts";
    const peerTest = 'import { x } from "../../src/rpc/peer.js";';
    expect(touches(`${repo}packages/core/test/rpc/x.test.ts`, peerTest, peer)).toBe(true);
    expect(touches(`${repo}packages/core/test/x.test.ts`, peerTest, peer)).toBe(false);
    const queue = "packages/core/src/rpc/request-queue.ts";
    expect(touches(`${repo}packages/core/test/x.test.ts`, "new RequestQueue()", queue)).toBe(true);
    expect(touches(`${repo}packages/core/test/x.test.ts`, "new RequestQueues()", queue)).toBe(false);
    expect(testedThrough(queue).has(peer)).toBe(true);
    // Through another package's entry: cli's startup failure text uses core's hint.
    expect(
      testedThrough("packages/core/src/server/never-served.ts").has(
        "packages/cli/src/dev/startup-failure.ts",
      ),
    ).toBe(true);
  });

  it.each(PACKAGES)("finds the tests of every module of packages/%s", (name) => {
    const pkg = facts.get(name)!;
    expect(pkg.modules.length).toBeGreaterThan(0);
    expect(unfindable(pkg)).toEqual([]);
  });

  it.each(PACKAGES)("has only existing paths in the test map of packages/%s", (name) => {
    const pkg = facts.get(name)!;
    expect(pkg.rows.flatMap((row) => rowPathProblems(pkg, row))).toEqual([]);
  });

  it.each(PACKAGES)("has map rows whose tests reach their modules in packages/%s", (name) => {
    const pkg = facts.get(name)!;
    expect(pkg.rows.flatMap((row) => untestedByRow(pkg, row))).toEqual([]);
  });
});
