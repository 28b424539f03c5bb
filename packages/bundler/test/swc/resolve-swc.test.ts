import { describe, expect, it } from "vitest";
import { ExecutaBuildError } from "../../src/errors/build-error.js";
import { loadSwc, MISSING_SWC_MESSAGE, resolveSwcPath } from "../../src/swc/resolve-swc.js";
import { tempDir } from "../helpers/temp-dir.js";

describe("@swc/core resolution", () => {
  it("finds @swc/core from the project", () => {
    expect(resolveSwcPath([process.cwd()])).toMatch(/@swc[/\\]core/);
    expect(typeof loadSwc().transform).toBe("function");
  });

  it("is a build error, with the documented message, when nothing can see it", async () => {
    const dir = await tempDir("no-swc");
    try {
      const error = (() => {
        try {
          resolveSwcPath([dir.path], { ownPackage: false });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ExecutaBuildError);
      expect((error as ExecutaBuildError).code).toBe("MISSING_SWC");
      expect((error as Error).message).toContain(MISSING_SWC_MESSAGE);
      expect((error as Error).message).toMatch(
        /^executa build failed at "setup": @swc\/core cannot be resolved/,
      );
      expect((error as Error).message).toContain(dir.path);
    } finally {
      await dir.remove();
    }
  });
});
