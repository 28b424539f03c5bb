import { describe, expect, it } from "vitest";
import { ExecutaBuildError } from "../../src/errors/build-error.js";
import { sourceRunFailure } from "../../src/source/source-failure.js";

const exited = (stderr: string) =>
  new ExecutaBuildError("ARTIFACT_EXITED", "exited (code 1) before answering describe", { stderr });

describe("a failed run from source", () => {
  it("is the build's failure at step source, with the check's code and the stderr", () => {
    const error = sourceRunFailure("src/main.ts", exited("boom\n")) as ExecutaBuildError;
    expect(error).toBeInstanceOf(ExecutaBuildError);
    expect(error.code).toBe("ARTIFACT_EXITED");
    expect(error.step).toBe("source");
    expect(error.message).toMatch(/^executa build failed at "source": running src\/main\.ts from source/);
    expect(error.message).toContain("    boom");
  });

  it("adds the import-type hint when the decorators report UNINFERABLE_TYPE", () => {
    const stderr =
      "executa: the plugin cannot start [UNINFERABLE_TYPE]: Weather.get, parameter #0: cannot infer the parameter type\n";
    const error = sourceRunFailure("src/main.ts", exited(stderr)) as Error;
    expect(error.message).toContain("must be imported as a value");
  });

  it("recognises the failure by its code, not by the wording of the message", () => {
    const error = sourceRunFailure("src/main.ts", exited("design:paramtypes says Object\n")) as Error;
    expect(error.message).not.toContain("must be imported as a value");
  });

  it("returns other errors unchanged", () => {
    const other = new Error("disk full");
    expect(sourceRunFailure("src/main.ts", other)).toBe(other);
  });
});
