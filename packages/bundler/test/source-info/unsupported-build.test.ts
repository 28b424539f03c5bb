import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isBuildError } from "../../src/errors/build-error.js";
import { buildExecutables } from "../../src/pipeline/build-executables.js";
import { tempDir } from "../helpers/temp-dir.js";

const entry = fileURLToPath(new URL("./unsupported-fixture/main.ts", import.meta.url));

describe("a plugin with a type the manifest cannot describe", () => {
  it("fails the build with the decorators' message: class, member, type as written, fix", async () => {
    const out = await tempDir("unsupported-build");
    try {
      const failure = await buildExecutables({ entry, outDir: out.path, quiet: true, binary: false }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isBuildError(failure)).toBe(true);
      const { message, stderr } = failure as Error & { stderr: string };
      // The reference manifest is read from source first (through the register hook's reader).
      expect(message).toContain('executa build failed at "source"');
      const text = `${message}\n${stderr}`;
      expect(text).toContain("UNSUPPORTED_TYPE");
      expect(text).toContain('Scheduler.later, parameter #0 "job"');
      expect(text).toContain("the TypeScript type `() => void` has no faithful manifest form: a function");
      expect(text).toContain('give an explicit type in @Param("job", { type: … })');
    } finally {
      await out.remove();
    }
  }, 120_000);
});
