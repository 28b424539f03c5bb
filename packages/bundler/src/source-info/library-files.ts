import type * as ts from "typescript";
import type { TypeScriptModule } from "./load-typescript.js";

/** One registry per compiler API loaded: parsed files are not shared between TypeScript versions. */
const registries = new WeakMap<TypeScriptModule, ts.DocumentRegistry>();

/** A library's files (under node_modules: TypeScript's `lib`, `@types`), which change only when it is installed again. */
export function isLibraryFile(fileName: string): boolean {
  return /[/\\]node_modules[/\\]/.test(fileName);
}

/**
 * The parsed (and, once a checker ran, bound) library file, shared by every reader of
 * this process through TypeScript's own `DocumentRegistry`, which keeps one per set of
 * compiler options that shape it: the tsconfig's `lib` and `types` (Node's alone is a
 * hundred files) are parsed once per process, not once per reader (a build, a test).
 *
 * @param fileName - The library file's path.
 * @param text - Its text (read once per reader; parsed only by the first).
 * @param version - Its modification time: a file installed again is parsed again.
 * @param options - The program's compiler options.
 * @param sourceFileOptions - What the program asks the file to be parsed with.
 */
export function libraryFile(
  tsm: TypeScriptModule,
  fileName: string,
  text: string,
  version: number,
  options: ts.CompilerOptions,
  sourceFileOptions: ts.ScriptTarget | ts.CreateSourceFileOptions,
): ts.SourceFile {
  let registry = registries.get(tsm);
  if (!registry) {
    registry = tsm.createDocumentRegistry();
    registries.set(tsm, registry);
  }
  return registry.acquireDocument(
    fileName,
    options,
    tsm.ScriptSnapshot.fromString(text),
    String(version),
    tsm.ScriptKind.TS,
    sourceFileOptions,
  );
}
