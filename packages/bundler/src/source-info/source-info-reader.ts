import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type * as ts from "typescript";
import { emitSourceInfo } from "./emit-source-info.js";
import { isLibraryFile, libraryFile } from "./library-files.js";
import { loadTypeScript, type TypeScriptModule } from "./load-typescript.js";
import type { SourceInfoNote } from "./read-field.js";
import { type ClassSourceInfo, readSourceInfo } from "./read-source-info.js";

/** Options of a {@link SourceInfoReader}. */
export interface SourceInfoReaderOptions {
  /** Where `typescript` is resolved from first; default the folder of the first file read. */
  projectDir?: string;
  /** The tsconfig whose compiler options the analysis uses; default the nearest one to the first file. */
  tsconfig?: string;
  /** The compiler API to use instead of resolving `typescript`. */
  typescript?: TypeScriptModule;
}

/** A file's text with its recorded source facts. */
export interface SourceInfoResult {
  /** The text with one recording statement after each class (the input itself when there is none). */
  code: string;
  classes: readonly ClassSourceInfo[];
  /** Members whose types have no faithful manifest form. */
  notes: readonly SourceInfoNote[];
  /** True when no `typescript` could be loaded: the code is unchanged and reflection alone applies. */
  typescriptMissing?: boolean;
}

interface CachedFile {
  text: string;
  mtimeMs: number;
  /** The {@link SourceInfoReader} generation its timestamp was last checked in. */
  checkedIn: number;
  sourceFile: ts.SourceFile;
}

/**
 * Answers, file by file, what a build-time reading of the TypeScript source records (see
 * `readSourceInfo`). One program serves every file: it is created on the first file that
 * may hold a class (rooted at it, with the nearest tsconfig's options) and
 * extended, reusing every unchanged parsed file, when a file outside it or a changed
 * text comes in. Files without `class` are returned as they are, at no cost.
 *
 * The program holds the project's files with the environment its tsconfig declares: its
 * `lib` (so `Map`, `Set` and `URL` are the built-ins they are, not unknown names) and its
 * `types` (Node's `Buffer` is a string's source as the project's own type check sees it).
 * Installed packages imported by module name are not loaded, to keep a build's or an
 * `executa dev` start small: their types are left to reflection.
 */
export class SourceInfoReader {
  private tsm: TypeScriptModule | undefined;
  private loaded = false;
  private program: ts.Program | undefined;
  private host: ts.CompilerHost | undefined;
  private compilerOptions: ts.CompilerOptions = {};
  private readonly roots = new Set<string>();
  private readonly texts = new Map<string, string>();
  private readonly cache = new Map<string, CachedFile>();
  private stale = false;
  /** Bumped by {@link SourceInfoReader.invalidate}: files read from disk are checked once per generation. */
  private generation = 0;

  constructor(private readonly options: SourceInfoReaderOptions = {}) {}

  /** Whether `text` can declare a class at all. */
  static mayRecord(text: string): boolean {
    return text.includes("class");
  }

  /** Reads `fileName` (whose current text is `text`) and returns the text with its recording statements. */
  transform(fileName: string, text: string): SourceInfoResult {
    if (!SourceInfoReader.mayRecord(text)) return { code: text, classes: [], notes: [] };
    const file = resolve(fileName);
    const tsm = this.typescript(file);
    if (!tsm) return { code: text, classes: [], notes: [], typescriptMissing: true };
    const { program, sourceFile } = this.programWith(tsm, file, text);
    const reading = readSourceInfo(tsm, program, sourceFile);
    const code = reading.classes.length > 0 ? emitSourceInfo(text, reading.classes, reading.imports) : text;
    return { code, classes: reading.classes, notes: reading.notes };
  }

  /** Marks files read from disk as possibly changed (a watch rebuild): the next read checks their timestamps. */
  invalidate(): void {
    this.stale = true;
    this.generation += 1;
  }

  private typescript(file: string): TypeScriptModule | undefined {
    if (!this.loaded) {
      this.loaded = true;
      this.tsm = this.options.typescript ?? loadTypeScript(this.options.projectDir ?? dirname(file));
    }
    return this.tsm;
  }

  private programWith(tsm: TypeScriptModule, file: string, text: string) {
    this.texts.set(file, text);
    let sourceFile = this.stale ? undefined : this.program?.getSourceFile(file);
    if (!sourceFile || sourceFile.text !== text) {
      this.roots.add(file);
      const host = this.compilerHost(tsm, file);
      this.program = tsm.createProgram({
        rootNames: [...this.roots],
        options: this.compilerOptions,
        host,
        ...(this.program ? { oldProgram: this.program } : {}),
      });
      this.stale = false;
      sourceFile = this.program.getSourceFile(file);
      if (!sourceFile) throw new Error(`executa source reader: TypeScript did not load ${file}`);
    }
    return { program: this.program as ts.Program, sourceFile };
  }

  private compilerHost(tsm: TypeScriptModule, firstFile: string): ts.CompilerHost {
    if (this.host) return this.host;
    this.compilerOptions = compilerOptionsFor(tsm, this.options.tsconfig, firstFile);
    const host = tsm.createCompilerHost(this.compilerOptions, true);
    host.getSourceFile = (fileName, languageVersion) => this.sourceFileOf(tsm, fileName, languageVersion);
    resolveOnce(tsm, host, this.compilerOptions);
    this.host = host;
    return host;
  }

  /**
   * A parsed file, reused across programs while its text is the same: a given text is
   * compared, a file on disk is trusted until {@link SourceInfoReader.invalidate}, then
   * its timestamp is checked once (files under node_modules never are).
   */
  private sourceFileOf(
    tsm: TypeScriptModule,
    fileName: string,
    languageVersion: ts.ScriptTarget | ts.CreateSourceFileOptions,
  ): ts.SourceFile | undefined {
    const cached = this.cache.get(fileName);
    const given = this.texts.get(resolve(fileName));
    if (cached && given !== undefined && cached.text === given) return cached.sourceFile;
    if (cached && given === undefined && this.unchangedOnDisk(fileName, cached)) return cached.sourceFile;
    const mtimeMs = given === undefined ? modifiedAt(fileName) : 0;
    const text = given ?? tsm.sys.readFile(fileName);
    if (text === undefined) return undefined;
    const sourceFile =
      given === undefined && isLibraryFile(fileName)
        ? libraryFile(tsm, fileName, text, mtimeMs, this.compilerOptions, languageVersion)
        : tsm.createSourceFile(fileName, text, languageVersion);
    this.cache.set(fileName, { text, mtimeMs, checkedIn: this.generation, sourceFile });
    return sourceFile;
  }

  private unchangedOnDisk(fileName: string, cached: CachedFile): boolean {
    if (cached.checkedIn === this.generation || isLibraryFile(fileName)) return true;
    if (modifiedAt(fileName) !== cached.mtimeMs) return false;
    cached.checkedIn = this.generation;
    return true;
  }
}

/** TypeScript's own library resolution: there at run time, not in its public types. */
type ResolveLibrary = (
  libraryName: string,
  resolveFrom: string,
  options: ts.CompilerOptions,
  host: ts.ModuleResolutionHost,
  cache: ts.ModuleResolutionCache,
) => ts.ResolvedModuleWithFailedLookupLocations;

/**
 * Gives `host` resolution caches that outlive each program: every file the reader meets
 * makes a new program, and without them each one resolves again every module, each `lib`
 * file and the package.json scope of every file (also what the tsconfig's `types` are
 * resolved through), most of a program's cost once its files are parsed.
 */
function resolveOnce(tsm: TypeScriptModule, host: ts.CompilerHost, options: ts.CompilerOptions): void {
  const directory = host.getCurrentDirectory();
  const canonical = (name: string) => host.getCanonicalFileName(name);
  const modules = tsm.createModuleResolutionCache(directory, canonical, options);
  host.getModuleResolutionCache = () => modules;
  host.resolveModuleNameLiterals = projectModulesOnly(tsm, host, modules);
  const { resolveLibrary } = tsm as { resolveLibrary?: ResolveLibrary };
  if (resolveLibrary) {
    // A compiler host member the program calls when present (else it resolves each lib
    // file again for every program).
    const libraries = tsm.createModuleResolutionCache(
      directory,
      canonical,
      options,
      modules.getPackageJsonInfoCache(),
    );
    Object.assign(host, {
      resolveLibrary: (name: string, from: string, compilerOptions: ts.CompilerOptions) =>
        resolveLibrary(name, from, compilerOptions, host, libraries),
    });
  }
}

/**
 * Module resolution that leaves out installed packages (whose real path is under
 * node_modules; workspace packages linked there resolve to their own folders and stay):
 * their declarations are most of a program's files, and the analysis reads the project's
 * own types. A member typed with a type from such a package is left to reflection.
 */
function projectModulesOnly(
  tsm: TypeScriptModule,
  host: ts.CompilerHost,
  cache: ts.ModuleResolutionCache,
): NonNullable<ts.CompilerHost["resolveModuleNameLiterals"]> {
  return (literals, containingFile, redirected, compilerOptions) =>
    literals.map((literal) => {
      const resolved = tsm.resolveModuleName(
        literal.text,
        containingFile,
        compilerOptions,
        host,
        cache,
        redirected,
      );
      const file = resolved.resolvedModule?.resolvedFileName;
      return file && isLibraryFile(file) ? { resolvedModule: undefined } : resolved;
    });
}

function modifiedAt(fileName: string): number {
  try {
    return statSync(fileName).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * The options of `tsconfig` (or the one nearest to `file`), for analysis only: nothing is
 * emitted. Its `lib` and `types` are kept: a narrower environment than the project's
 * makes its built-ins unknown names, and a result typed with one loses its schema.
 */
function compilerOptionsFor(
  tsm: TypeScriptModule,
  tsconfig: string | undefined,
  file: string,
): ts.CompilerOptions {
  const configPath = tsconfig ?? tsm.findConfigFile(dirname(file), tsm.sys.fileExists);
  const fallback: ts.CompilerOptions = {
    target: tsm.ScriptTarget.ES2022,
    module: tsm.ModuleKind.ESNext,
    moduleResolution: tsm.ModuleResolutionKind.Bundler,
    strict: true,
    experimentalDecorators: true,
  };
  const analysis: ts.CompilerOptions = { noEmit: true };
  if (!configPath) return { ...fallback, ...analysis };
  const read = tsm.readConfigFile(configPath, tsm.sys.readFile);
  if (read.error)
    throw new Error(
      `executa source reader: ${tsm.flattenDiagnosticMessageText(read.error.messageText, "\n")}`,
    );
  const parsed = tsm.parseJsonConfigFileContent(
    read.config,
    tsm.sys,
    dirname(configPath),
    undefined,
    configPath,
  );
  return { ...parsed.options, ...analysis };
}
