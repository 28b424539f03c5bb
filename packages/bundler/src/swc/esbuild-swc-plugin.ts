import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, relative } from "node:path";
import type { Options } from "tsup";
import type { SwcModule } from "./resolve-swc.js";
import { decoratorTransformOptions } from "./transform-options.js";

/** An esbuild plugin, as tsup's `esbuildPlugins` takes it. */
export type EsbuildPlugin = NonNullable<Options["esbuildPlugins"]>[number];

const TYPESCRIPT = /\.[cm]?tsx?$/;

/**
 * Compiles the project's TypeScript files with SWC so that decorator metadata survives
 * bundling (esbuild never emits `design:paramtypes`). Files under node_modules are left
 * to esbuild: published packages ship JavaScript with their metadata already compiled in.
 *
 * tsup adds its own SWC plugin when the tsconfig enables `emitDecoratorMetadata` and it
 * can see `@swc/core`; that plugin is registered first, so it then compiles these files
 * with the same decorator settings and this one stands by. This one makes the result
 * independent of the tsconfig tsup happens to find and of where `@swc/core` is visible.
 */
export function swcDecoratorPlugin(swc: SwcModule): EsbuildPlugin {
  return {
    name: "executa-swc-decorator-metadata",
    setup(build) {
      build.initialOptions.keepNames = true;
      build.onLoad({ filter: TYPESCRIPT }, async (args) => {
        if (args.path.includes("/node_modules/") || args.path.includes("\\node_modules\\")) return undefined;
        const source = await readFile(args.path, "utf8");
        const result = await swc.transform(source, decoratorTransformOptions(args.path));
        let contents = result.code;
        if (result.map) {
          const map = JSON.parse(result.map) as { sources: string[] };
          map.sources = map.sources.map((source) =>
            isAbsolute(source) ? relative(dirname(args.path), source) : source,
          );
          contents += `\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString("base64")}`;
        }
        return { contents, loader: "js", resolveDir: dirname(args.path) };
      });
    },
  };
}
