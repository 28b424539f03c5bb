import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import type { Options } from "tsup";
import { SourceInfoReader } from "../source-info/source-info-reader.js";
import { inNodeModules, TYPESCRIPT_FILE } from "../util/typescript-file.js";
import type { SwcModule } from "./resolve-swc.js";
import { decoratorTransformOptions } from "./transform-options.js";

/** An esbuild plugin, as tsup's `esbuildPlugins` takes it. */
export type EsbuildPlugin = NonNullable<Options["esbuildPlugins"]>[number];
type PluginBuild = Parameters<EsbuildPlugin["setup"]>[0];
type OnResolveArgs = Parameters<Parameters<PluginBuild["onResolve"]>[1]>[0];

/** Options of {@link swcDecoratorPlugin}. */
export interface SwcDecoratorPluginOptions {
  /**
   * Reads the TypeScript types and doc comments of classes and records them in
   * the compiled code (see `SourceInfoReader`). Default: a reader made for this build;
   * `false` compiles without it (reflection alone then describes the plugin).
   */
  sourceInfo?: SourceInfoReader | false;
}

/** The namespace and path suffix of project TypeScript files this plugin loads itself (see `routeProjectFiles`). */
const NAMESPACE = "executa-source";
const SUFFIX = "?executa-source";
const RESOLVING = Symbol("resolving");

/**
 * Compiles the project's TypeScript files with SWC so that decorator metadata survives
 * bundling (esbuild never emits `design:paramtypes`). Files under node_modules are left
 * to esbuild: published packages ship JavaScript with their metadata already compiled in.
 *
 * It also records, after each class, what the TypeScript types and doc comments
 * say about it (see `SourceInfoReader`; one reader, so one program, per build and across
 * watch rebuilds). tsup adds its own SWC plugin ahead of this one when the tsconfig
 * enables `emitDecoratorMetadata`; the project's files are then routed past it (see
 * `routeProjectFiles`), so the result does not depend on the tsconfig tsup finds or on
 * where `@swc/core` is visible. Without a reader (`sourceInfo: false`) that plugin, when
 * present, compiles them and this one stands by.
 */
export function swcDecoratorPlugin(swc: SwcModule, options: SwcDecoratorPluginOptions = {}): EsbuildPlugin {
  const reader = options.sourceInfo === false ? undefined : (options.sourceInfo ?? new SourceInfoReader());
  return {
    name: "executa-swc-decorator-metadata",
    setup(build) {
      build.initialOptions.keepNames = true;
      const compile = async (path: string, sourcesFrom: string) => {
        const source = await readFile(path, "utf8");
        const result = await swc.transform(
          withSourceInfo(reader, path, source),
          decoratorTransformOptions(path),
        );
        let contents = result.code;
        if (result.map) {
          const map = JSON.parse(result.map) as { sources: string[] };
          map.sources = map.sources.map((source) =>
            isAbsolute(source) ? relative(sourcesFrom, source) : source,
          );
          contents += `\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString("base64")}`;
        }
        return { contents, loader: "js" as const, resolveDir: dirname(path) };
      };
      if (reader) {
        build.onStart(() => reader.invalidate());
        routeProjectFiles(build, compile);
      }
      build.onLoad({ filter: TYPESCRIPT_FILE }, async (args) => {
        if (inNodeModules(args.path)) return undefined;
        return compile(args.path, dirname(args.path));
      });
    },
  };
}

/**
 * tsup registers its own SWC plugin ahead of this one when the tsconfig enables
 * `emitDecoratorMetadata`, and esbuild lets the first loader that answers win, so that
 * plugin would compile the project's files without the recorded source facts. The files
 * that relative imports and the entry reach are therefore moved into a namespace of their
 * own, under a path that no `.ts` filter matches, and compiled here; their own imports
 * are resolved as if made from the real file, by every plugin. (Files reached through
 * tsconfig `paths` aliases stay in the `file` namespace.)
 */
function routeProjectFiles(
  build: PluginBuild,
  compile: (
    path: string,
    sourcesFrom: string,
  ) => Promise<{ contents: string; loader: "js"; resolveDir: string }>,
): void {
  const outDir = build.initialOptions.outdir ?? dirname(build.initialOptions.outfile ?? "out.js");
  build.onResolve({ filter: /.*/ }, async (args) => {
    if (args.pluginData === RESOLVING || !isRouted(args)) return undefined;
    const fromRouted = args.namespace === NAMESPACE;
    // Resolved as if imported from the real file, by every plugin (native addons included).
    const resolved = await build.resolve(args.path, {
      kind: args.kind,
      resolveDir: args.resolveDir,
      pluginData: RESOLVING,
      importer: fromRouted ? args.importer.slice(0, -SUFFIX.length) : args.importer,
      namespace: "file",
    });
    if (resolved.errors.length > 0) return undefined;
    const projectFile =
      resolved.namespace === "file" && !resolved.external && TYPESCRIPT_FILE.test(resolved.path);
    // Its package's `"sideEffects": false` still holds in the namespace, so unused modules are dropped.
    if (projectFile && !inNodeModules(resolved.path))
      return { path: `${resolved.path}${SUFFIX}`, namespace: NAMESPACE, sideEffects: resolved.sideEffects };
    if (!fromRouted) return undefined;
    const { path, namespace, external, sideEffects, pluginData, suffix } = resolved;
    return { path, namespace, external, sideEffects, pluginData, suffix };
  });
  build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) =>
    compile(args.path.slice(0, -SUFFIX.length), resolve(outDir)),
  );
}

/** Every import of a routed file; the entry and relative or absolute imports of a `file`-namespace one. */
function isRouted(args: OnResolveArgs): boolean {
  if (args.namespace === NAMESPACE) return true;
  if (args.namespace !== "file") return false;
  return args.kind === "entry-point" || args.path.startsWith(".") || isAbsolute(args.path);
}

/** `source` with the recording statements of its classes (see `SourceInfoReader`). */
function withSourceInfo(reader: SourceInfoReader | undefined, path: string, source: string): string {
  return reader ? reader.transform(path, source).code : source;
}
