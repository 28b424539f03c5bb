// What the source reader keeps from one program to the next (each new file makes one) and
// shares between readers of one process.
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { libraryFile } from "../../src/source-info/library-files.js";
import type { TypeScriptModule } from "../../src/source-info/load-typescript.js";
import { SourceInfoReader } from "../../src/source-info/source-info-reader.js";
import { DECORATOR_DECLARATIONS, sourceProject } from "./source-files.js";

const ts = createRequire(import.meta.url)("typescript") as TypeScriptModule;

let project: Awaited<ReturnType<typeof sourceProject>> | undefined;
afterEach(async () => {
  await project?.remove();
  project = undefined;
});

const uses = (name: string) =>
  `${DECORATOR_DECLARATIONS}\nimport type { Kind } from "./kind.js";\nexport class ${name} { @Field() kind!: Kind }\n`;

describe("SourceInfoReader across programs", () => {
  it("reads a file from disk once until invalidate(), however many programs follow", async () => {
    project = await sourceProject({
      "kind.ts": 'export type Kind = "a" | "b";\n',
      "first.ts": uses("First"),
      "second.ts": uses("Second"),
    });
    const reader = new SourceInfoReader();
    const kind = async (file: string) =>
      reader.transform(project!.path(file), await readFile(project!.path(file), "utf8")).classes[0]?.info
        .fields?.kind?.schema;
    expect(await kind("first.ts")).toEqual({ type: "string", enum: ["a", "b"] });
    await writeFile(project.path("kind.ts"), 'export type Kind = "a" | "b" | "c";\n');
    expect(await kind("second.ts")).toEqual({ type: "string", enum: ["a", "b"] });
    reader.invalidate();
    expect(await kind("second.ts")).toEqual({ type: "string", enum: ["a", "b", "c"] });
  }, 60_000);

  it("resolves nothing again for a new file's program: modules, package scopes and lib files are cached", async () => {
    project = await sourceProject({
      "kind.ts": 'export type Kind = "a" | "b";\n',
      "first.ts": uses("First"),
      "second.ts": uses("Second"),
    });
    const reader = new SourceInfoReader({ typescript: ts });
    const read = async (file: string) =>
      reader.transform(project!.path(file), await readFile(project!.path(file), "utf8"));
    await read("first.ts");
    const probes: string[] = [];
    const { fileExists, directoryExists } = ts.sys;
    ts.sys.fileExists = (path) => {
      probes.push(path);
      return fileExists(path);
    };
    ts.sys.directoryExists = (path) => {
      probes.push(path);
      return directoryExists!(path);
    };
    try {
      expect((await read("second.ts")).classes[0]?.info.fields?.kind?.schema).toEqual({
        type: "string",
        enum: ["a", "b"],
      });
    } finally {
      Object.assign(ts.sys, { fileExists, directoryExists });
    }
    expect(probes).toEqual([]);
  }, 60_000);
});

describe("library files", () => {
  const path = createRequire(import.meta.url).resolve("typescript/lib/lib.es2020.symbol.wellknown.d.ts");
  const options = { target: ts.ScriptTarget.ES2022 };

  it("are parsed once per process: every reader gets the same file while it is unchanged", async () => {
    const text = await readFile(path, "utf8");
    const first = libraryFile(ts, path, text, 1, options, ts.ScriptTarget.ES2022);
    const again = libraryFile(ts, path, text, 1, { ...options }, ts.ScriptTarget.ES2022);
    expect(again).toBe(first);
    expect(first.statements.length).toBeGreaterThan(0);
  });

  it("are parsed again once installed again (a new modification time)", async () => {
    const text = await readFile(path, "utf8");
    const before = libraryFile(ts, path, text, 2, options, ts.ScriptTarget.ES2022);
    const changed = `${text}\ninterface Reinstalled {}\n`;
    const after = libraryFile(ts, path, changed, 3, options, ts.ScriptTarget.ES2022);
    expect(after.text).toBe(changed);
    expect(after).not.toBe(before);
  });
});
