import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SourceInfoReader } from "../../src/source-info/source-info-reader.js";
import { DECORATOR_DECLARATIONS, sourceProject } from "./source-files.js";

const PLUGIN = `${DECORATOR_DECLARATIONS}
/** Versioned. */
@Plugin({ name: "versioned" })
export class Versioned {}

export class Helper {}
`;

describe("the source reader and package.json's version", () => {
  let project: Awaited<ReturnType<typeof sourceProject>>;

  beforeAll(async () => {
    project = await sourceProject({
      "package.json": JSON.stringify({ name: "versioned", version: "2.3.4" }),
      "src/plugin.ts": PLUGIN,
    });
  });
  afterAll(() => project?.remove());

  it("records the nearest package.json's version on a @Plugin class only", async () => {
    const file = project.path("src/plugin.ts");
    const result = new SourceInfoReader().transform(file, await readFile(file, "utf8"));
    const classes = Object.fromEntries(result.classes.map((found) => [found.name, found.info]));
    expect(classes.Versioned).toEqual({ description: "Versioned.", packageVersion: "2.3.4" });
    expect(classes.Helper).toEqual({});
  });
});
