/**
 * Module-loader hooks (node:module `register`) that run TypeScript from source with the
 * same SWC transform as the bundle, decorator metadata included. Loaded in Node's loader
 * thread by `@executa/bundler/register`; not meant to be imported directly.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { SourceInfoReader } from "../source-info/source-info-reader.js";
import type { SwcModule } from "../swc/resolve-swc.js";
import { swcSyntaxError } from "../swc/syntax-error.js";
import { decoratorTransformOptions } from "../swc/transform-options.js";
import { TYPESCRIPT_FILE } from "../util/typescript-file.js";

/** What `register()` hands to {@link initialize}. */
export interface HooksData {
  /** Resolved path of `@swc/core`. */
  swcPath: string;
}

type ModuleFormat = "module" | "commonjs";
interface ResolveContext {
  parentURL?: string;
  conditions?: string[];
}
interface ResolveResult {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}
interface LoadContext {
  format?: string | null;
  conditions?: string[];
}
interface LoadResult {
  format: string;
  source?: string | ArrayBuffer | Uint8Array;
  shortCircuit?: boolean;
}

let swc: SwcModule | undefined;
// One program for the process, rooted at the first TypeScript file loaded (the entry).
const sourceInfo = new SourceInfoReader();

/** Receives the `@swc/core` location found by the registering thread. */
export function initialize(data: HooksData): void {
  swc = createRequire(import.meta.url)(data.swcPath) as SwcModule;
}

/**
 * Resolves as Node does, then, for relative specifiers Node cannot find, tries the
 * TypeScript file behind them: `./x.js` → `./x.ts` / `./x.tsx`, `./x.mjs` → `./x.mts`,
 * `./x` → `./x.ts` / `./x/index.ts` (what `moduleResolution: Bundler` allows).
 */
export async function resolve(
  specifier: string,
  context: ResolveContext,
  next: (specifier: string, context: ResolveContext) => Promise<ResolveResult>,
): Promise<ResolveResult> {
  try {
    return await next(specifier, context);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const relativeSpecifier = specifier.startsWith("./") || specifier.startsWith("../");
    if (!relativeSpecifier || (code !== "ERR_MODULE_NOT_FOUND" && code !== "ERR_UNSUPPORTED_DIR_IMPORT")) {
      throw error;
    }
    for (const candidate of typescriptCandidates(specifier)) {
      try {
        return await next(candidate, context);
      } catch {
        // not this one
      }
    }
    throw error;
  }
}

/**
 * Compiles TypeScript files with SWC, with the source facts of their classes
 * recorded as the bundle records them; everything else loads as usual.
 */
export async function load(
  url: string,
  context: LoadContext,
  next: (url: string, context: LoadContext) => Promise<LoadResult>,
): Promise<LoadResult> {
  if (!url.startsWith("file:") || !TYPESCRIPT_FILE.test(new URL(url).pathname)) return next(url, context);
  if (!swc) throw new Error("@executa/bundler/register: hooks used before initialize()");
  const filename = fileURLToPath(url);
  const format = formatOf(filename);
  const original = await readFile(filename, "utf8");
  const withFacts = sourceInfo.transform(filename, original).code;
  try {
    return { format, source: await compile(swc, filename, withFacts, format), shortCircuit: true };
  } catch (error) {
    // Reported on the author's own text: the recorded source facts must not show in the frame.
    const own = await compile(swc, filename, original, format).then(
      () => undefined,
      (ownError: unknown) => swcSyntaxError(ownError, filename),
    );
    throw own ?? error;
  }
}

async function compile(
  swc: SwcModule,
  filename: string,
  text: string,
  format: ModuleFormat,
): Promise<string> {
  const options = decoratorTransformOptions(filename, {
    module: format === "module" ? "es6" : "commonjs",
    sourceMaps: "inline",
  });
  return (await swc.transform(text, options)).code;
}

function typescriptCandidates(specifier: string): string[] {
  const swap = (from: string, to: string[]) => to.map((ext) => specifier.slice(0, -from.length) + ext);
  if (specifier.endsWith(".js")) return swap(".js", [".ts", ".tsx"]);
  if (specifier.endsWith(".jsx")) return swap(".jsx", [".tsx"]);
  if (specifier.endsWith(".mjs")) return swap(".mjs", [".mts"]);
  if (specifier.endsWith(".cjs")) return swap(".cjs", [".cts"]);
  return [`${specifier}.ts`, `${specifier}.tsx`, `${specifier}/index.ts`, `${specifier}/index.tsx`];
}

/**
 * `.cts` is CommonJS; everything else is run as an ES module whatever the package's
 * `type`, like the bundle treats it (TypeScript sources use import/export). Node 20
 * resolves the `require()` calls of CommonJS sources without these hooks, so a `.cts`
 * file can require JavaScript but not other TypeScript files.
 */
function formatOf(filename: string): ModuleFormat {
  return /\.ctsx?$/.test(filename) ? "commonjs" : "module";
}
