import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildExecutables } from "../../src/pipeline/build-executables.js";
import type { BuildExecutablesResult } from "../../src/pipeline/finish-build.js";
import { sourceCommand } from "../../src/source/describe-source.js";
import type { ArtifactCommand } from "../../src/verify/artifact-process.js";
import { drive, invoke } from "../helpers/drive.js";
import { tempDir } from "../helpers/temp-dir.js";
import { REFUSED, VALID, VALID_RESULT } from "./undecorated-nested-fixture/cases.js";

// The expense tracker of the zero-annotation style: nested fields without decorators or
// @Type (one class imported for its type only), class-validator rules on the nested
// classes, a getter, a recursive class. Built into the bundle, and run from source as
// `executa dev` runs it, each driven over real pipes.
const entry = fileURLToPath(new URL("./undecorated-nested-fixture/main.ts", import.meta.url));

async function expectNestedBehaviour(command: ArtifactCommand): Promise<void> {
  const run = await drive(command, [
    invoke("record", VALID),
    ...REFUSED.map(([, args]) => invoke("record", args as Record<string, unknown>)),
    invoke("record", VALID),
  ]);
  const [valid, ...rest] = run.outcomes;
  const answered = { result: expect.objectContaining({ success: true, data: VALID_RESULT }) };
  expect(valid).toEqual(answered);
  REFUSED.forEach(([, , path, message], index) => {
    expect(rest[index]).toMatchObject({
      error: {
        code: -32602,
        message: expect.stringMatching(new RegExp(`${path.replaceAll(".", "\\.")}: .*${message.source}`)),
      },
    });
  });
  // Still serving after the refusals.
  expect(rest.at(-1)).toEqual(answered);
  expect(run.exitCode).toBe(0);
}

describe("undecorated nested DTO fields", () => {
  let out: Awaited<ReturnType<typeof tempDir>>;
  let result: BuildExecutablesResult;

  beforeAll(async () => {
    out = await tempDir("undecorated-nested-build");
    result = await buildExecutables({ entry, outDir: out.path, quiet: true, binary: false });
  }, 180_000);
  afterAll(() => out?.remove());

  it("are instances of their classes and held to their rules in the bundle", async () => {
    await expectNestedBehaviour({ command: process.execPath, args: [result.bundle.path] });
  }, 60_000);

  it("are the same when run from source, as executa dev runs it", async () => {
    await expectNestedBehaviour(sourceCommand(entry));
  }, 60_000);
});
