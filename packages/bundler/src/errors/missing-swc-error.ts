import { ExecutaBuildError } from "./build-error.js";

/** The documented message of a build without `@swc/core`. */
export const MISSING_SWC_MESSAGE =
  "@swc/core cannot be resolved. Decorator metadata (design:paramtypes, design:type) is emitted by SWC; " +
  "esbuild alone drops it, so a decorated plugin would lose its parameter types. " +
  "Install it next to tsup: `pnpm add -D @swc/core` (or npm i -D @swc/core).";

/** `@swc/core` is not installed where the build runs: always an error, never a warning. */
export class MissingSwcError extends ExecutaBuildError {
  override readonly name: string = "MissingSwcError";
  constructor(searched: readonly string[]) {
    super("setup", `${MISSING_SWC_MESSAGE} Searched from: ${searched.join(", ")}`);
  }
}
