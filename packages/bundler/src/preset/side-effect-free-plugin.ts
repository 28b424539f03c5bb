import type { EsbuildPlugin } from "../swc/esbuild-swc-plugin.js";

/**
 * CommonJS packages that only define and export, but whose package.json does not say so
 * (`"sideEffects": false`). Unsaid, a bundler keeps an import of one that nothing uses and
 * runs it at start: `@executa/host/local` imports `ajv-formats` for the local host's
 * structured sampling, and a plugin importing only `mcpLocalFallback` from there would
 * load it, and `ajv` with it, on every start.
 */
const SIDE_EFFECT_FREE_PACKAGES: readonly string[] = ["ajv-formats"];

/** Marks {@link SIDE_EFFECT_FREE_PACKAGES} free of side effects, so unused imports of them are dropped. */
export function sideEffectFreePlugin(): EsbuildPlugin {
  return {
    name: "executa-side-effect-free",
    setup(build) {
      for (const name of SIDE_EFFECT_FREE_PACKAGES) {
        const filter = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
        build.onResolve({ filter }, async (args) => {
          if ((args.pluginData as { sideEffectFree?: boolean } | undefined)?.sideEffectFree) return undefined;
          const resolved = await build.resolve(args.path, {
            kind: args.kind,
            importer: args.importer,
            resolveDir: args.resolveDir,
            pluginData: { sideEffectFree: true },
          });
          if (resolved.errors.length > 0) return { errors: resolved.errors };
          const { path, namespace, external, suffix } = resolved;
          return { path, namespace, external, suffix, sideEffects: false };
        });
      }
    },
  };
}
