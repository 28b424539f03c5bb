import { PluginDefinitionError } from "./definition-error.js";

/**
 * Decorator metadata (`design:paramtypes` / `design:type`) is absent: the code was compiled
 * without `emitDecoratorMetadata` (esbuild never emits it), or the metadata polyfill was
 * installed after the class was defined.
 */
export class MetadataMissingError extends PluginDefinitionError {
  override readonly name = "MetadataMissingError";
}

/** The documented fix, shared by every place that detects missing metadata. */
export const METADATA_FIX =
  "compile with decorator metadata: TypeScript (tsc) or SWC with experimentalDecorators and " +
  "emitDecoratorMetadata enabled (tsup uses SWC automatically when the tsconfig enables " +
  "emitDecoratorMetadata and @swc/core is installed; plain esbuild drops the metadata). If the " +
  "build is right, import @executa/decorators before the module that defines this class, so " +
  "the Reflect metadata API is installed first.";
