/** The documented fix for `METADATA_MISSING`, shared by every place that detects missing metadata. */
export const METADATA_FIX =
  "compile with decorator metadata: TypeScript (tsc) or SWC with experimentalDecorators and " +
  "emitDecoratorMetadata enabled (tsup uses SWC automatically when the tsconfig enables " +
  "emitDecoratorMetadata and @swc/core is installed; plain esbuild drops the metadata). If the " +
  "build is right, import @executa/decorators before the module that defines this class, so " +
  "the Reflect metadata API is installed first.";
