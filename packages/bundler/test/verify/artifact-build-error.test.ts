import { describe, expect, it } from "vitest";
import { ExecutaBuildError } from "../../src/errors/build-error.js";
import { artifactBuildError } from "../../src/verify/verify-artifact.js";

const exited = (stderr: string) =>
  new ExecutaBuildError("ARTIFACT_EXITED", "exited (code 1) before answering describe", { stderr });

describe("an artifact check's failure as the build's", () => {
  it.each(["METADATA_MISSING", "UNINFERABLE_TYPE"])(
    "adds the metadata hint when the decorators report %s",
    (code) => {
      const stderr = `executa: the plugin cannot start [${code}]: Weather.get: no type metadata\n`;
      const error = artifactBuildError("bundle", "dist/weather.cjs", exited(stderr)) as ExecutaBuildError;
      expect(error.step).toBe("bundle");
      expect(error.message).toContain("decoratorMetadata");
    },
  );

  it("matches the code, not the wording", () => {
    const stderr = "MetadataMissingError: design:paramtypes is missing\n";
    const error = artifactBuildError("bundle", "dist/weather.cjs", exited(stderr)) as ExecutaBuildError;
    expect(error.message).not.toContain("decoratorMetadata");
  });
});
