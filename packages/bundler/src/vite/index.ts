/**
 * `@executa/bundler/vite`: the vite (and vitest) plugin that records the TypeScript
 * source facts of classes, as the build and `executa dev` do, so that a plugin
 * run in-process under test describes itself with the same manifest as its binary.
 *
 * ```ts
 * // vitest.config.ts
 * import { executaSource } from "@executa/bundler/vite";
 * export default defineConfig({ plugins: [executaSource(), swc.vite()] });
 * ```
 * @packageDocumentation
 */
import { SourceInfoReader, type SourceInfoReaderOptions } from "../source-info/source-info-reader.js";
import { inNodeModules, TYPESCRIPT_FILE } from "../util/typescript-file.js";

/** The part of vite's plugin interface {@link executaSource} implements (no dependency on vite's types). */
export interface ExecutaSourceVitePlugin {
  name: string;
  enforce: "pre";
  transform(code: string, id: string): { code: string; map: null } | null;
  watchChange(id: string): void;
}

/** Options of {@link executaSource}. */
export interface ExecutaSourceOptions extends SourceInfoReaderOptions {
  /**
   * Files left as they are (e.g. tests of what happens without the recorded facts): a
   * pattern tested against the absolute path, or a predicate. `node_modules` is always left out.
   */
  exclude?: RegExp | ((file: string) => boolean);
}

/**
 * A vite plugin that runs before the TypeScript compilers (`enforce: "pre"`) and inserts,
 * after each class of a project `.ts` file, the statement recording what its
 * types and doc comments say. Code lines and columns are unchanged (the statements go at
 * the end of the classes' last lines), so no source map is needed.
 */
export function executaSource(options: ExecutaSourceOptions = {}): ExecutaSourceVitePlugin {
  const { exclude, ...readerOptions } = options;
  const excluded = typeof exclude === "function" ? exclude : (file: string) => exclude?.test(file) ?? false;
  const reader = new SourceInfoReader(readerOptions);
  return {
    name: "executa-source",
    enforce: "pre",
    transform(code, id) {
      const file = id.split("?", 1)[0] ?? id;
      if (!TYPESCRIPT_FILE.test(file) || inNodeModules(file) || file.startsWith("\0")) return null;
      if (excluded(file)) return null;
      const result = reader.transform(file, code);
      return result.code === code ? null : { code: result.code, map: null };
    },
    watchChange() {
      reader.invalidate();
    },
  };
}
