import { ARTIFACT_CHECK_CODES, ExecutaBuildError, isBuildError } from "../errors/build-error.js";
import { failedOnUninferableType } from "../verify/decorator-failure.js";

const TYPE_IMPORT_HINT =
  "A class used as a parameter type must be imported as a value: `import type { X }` (which lint " +
  "fixes such as biome's useImportType produce) leaves design:paramtypes pointing at nothing, so it reads as Object.";

/**
 * A failed run of the entry from source as the build's failure (step `source`, the
 * check's code): the reason, the last stderr lines, and the `import type` hint when the
 * decorators said they could not infer a parameter type. Other errors are returned unchanged.
 */
export function sourceRunFailure(entry: string, error: unknown): unknown {
  if (!isBuildError(error, ...ARTIFACT_CHECK_CODES)) return error;
  const stderr = error.stderr.trimEnd().split("\n").filter(Boolean).slice(-30);
  return new ExecutaBuildError(
    error.code,
    `running ${entry} from source (for the reference manifest) failed: ${error.message}` +
      (stderr.length ? `\n  stderr:\n${stderr.map((line) => `    ${line}`).join("\n")}` : "") +
      (failedOnUninferableType(error.stderr) ? `\n${TYPE_IMPORT_HINT}` : ""),
    { step: "source", cause: error, stderr: error.stderr },
  );
}
