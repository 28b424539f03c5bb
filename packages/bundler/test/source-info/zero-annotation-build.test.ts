import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildExecutables } from "../../src/pipeline/build-executables.js";
import type { BuildExecutablesResult } from "../../src/pipeline/finish-build.js";
import { describeSource } from "../../src/source/describe-source.js";
import { SourceInfoReader } from "../../src/source-info/source-info-reader.js";
import { describeArtifact } from "../../src/verify/describe-artifact.js";
import { drive, invoke } from "../helpers/drive.js";
import { tempDir } from "../helpers/temp-dir.js";
import { PARAMETERS } from "./zero-annotation-fixture/expected-parameters.js";

// The issue's zero-annotation DTO: `@Args()` typed with a class that carries no decorator,
// with a nested undecorated class, an array of one, an optional field and a Date, declared
// in a file that holds no decorator at all.
const fixture = (file: string) =>
  fileURLToPath(new URL(`./zero-annotation-fixture/${file}`, import.meta.url));
const entry = fixture("main.ts");

describe("undecorated classes the types reach", () => {
  it("are read from a file without any decorator, nested shapes and all", async () => {
    const file = fixture("dto.ts");
    const text = await readFile(file, "utf8");
    expect(text).not.toContain("@");
    const result = new SourceInfoReader().transform(file, text);
    const byName = Object.fromEntries(result.classes.map((found) => [found.name, found.info]));
    expect(Object.keys(byName).sort()).toEqual(["CreateIssueDto", "IssueLabel", "SourceLocation"]);
    expect(byName.SourceLocation?.description).toBe("Where in the code the issue is.");
    const fields = byName.CreateIssueDto?.fields ?? {};
    expect(fields.title).toMatchObject({
      optional: false,
      description: "Title.",
      schema: { type: "string" },
    });
    expect(fields.body).toMatchObject({ optional: true, schema: { type: "string" } });
    expect(fields.due).toMatchObject({ optional: true, schema: { type: "string", format: "date-time" } });
    expect(fields.labels).toMatchObject({
      default: [],
      schema: {
        type: "array",
        items: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      },
    });
    expect(result.code).toContain('.set(IssueLabel, {"fields":{"name"');
  }, 60_000);
});

describe("a plugin with a zero-annotation @Args() DTO, built and run as a child", () => {
  let out: Awaited<ReturnType<typeof tempDir>>;
  let result: BuildExecutablesResult;

  beforeAll(async () => {
    out = await tempDir("zero-annotation-build");
    result = await buildExecutables({ entry, outDir: out.path, quiet: true, binary: false });
  }, 180_000);
  afterAll(() => out?.remove());

  it("describes the DTO's fields from the bundle, as running from source (`executa dev`) does", async () => {
    const bundle = await describeArtifact({ command: process.execPath, args: [result.bundle.path] });
    expect(bundle.manifest.tools[0]?.parameters).toEqual(PARAMETERS);
    const source = await describeSource(entry);
    expect(source.manifest).toEqual(bundle.manifest);
  }, 60_000);

  it("binds, coerces and validates nested data in the bundle over real pipes", async () => {
    const run = await drive({ command: process.execPath, args: [result.bundle.path] }, [
      invoke("create", {
        title: "Crash",
        location: { file: "src/a.ts", line: "12" },
        labels: [{ name: "bug" }],
        due: "2026-03-01T10:30:00Z",
      }),
      invoke("create", { title: "Crash", location: { line: 3 } }),
      invoke("create", { title: "Crash", location: { file: "a.ts" }, labels: [{ name: 5 }] }),
    ]);
    const [ok, missing, wrongItem] = run.outcomes;
    expect(ok).toEqual({
      result: expect.objectContaining({
        success: true,
        data: {
          isDto: true,
          title: "Crash",
          location: { file: "src/a.ts", line: 12 },
          labels: [{ name: "bug", color: "grey" }],
          due: "2026-03-01T10:30:00.000Z",
        },
      }),
    });
    expect(missing).toMatchObject({
      error: { code: -32602, message: expect.stringContaining("location.file") },
    });
    expect(wrongItem).toMatchObject({
      error: { code: -32602, message: expect.stringContaining("labels.0.name: expected a string") },
    });
    expect(run.exitCode).toBe(0);
  });
});
