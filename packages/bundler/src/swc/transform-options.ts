import type { Options as SwcOptions } from "@swc/core";

/** Module system SWC emits. */
export type SwcModuleKind = "es6" | "commonjs";

/**
 * The SWC options of every TypeScript transform in this package (the bundle and running
 * from source): legacy decorators with `design:*` metadata, class names kept (the
 * decorators name classes in their messages), `useDefineForClassFields: false` as the
 * shared tsconfig sets it. One function, so the bundle and the source run cannot differ.
 */
export function decoratorTransformOptions(
  filename: string,
  options: { module?: SwcModuleKind; sourceMaps?: boolean | "inline" } = {},
): SwcOptions {
  const tsx = /\.[cm]?tsx$/.test(filename);
  return {
    filename,
    configFile: false,
    swcrc: false,
    sourceMaps: options.sourceMaps ?? true,
    jsc: {
      parser: { syntax: "typescript", tsx, decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      keepClassNames: true,
      target: "es2022",
    },
    module: { type: options.module ?? "es6" },
  };
}
