import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SourceInfoReader } from "../../src/source-info/source-info-reader.js";
import { sourceProject } from "./source-files.js";

// A DTO field typed with a project class records a thunk naming that class, so that the
// decorators can make its values instances; the emitted code must be able to name it.

const FILES = {
  "line-item.ts":
    "export class LineItem { unitPrice!: number; }\nexport default class Note { text!: string; }\n",
  "payer.ts": "export class Payer { email!: string; }\n",
  "shape.ts": "export interface Shape { side: number; }\n",
  "expense.ts": `import type { LineItem } from "./line-item.js";
import type Note from "./line-item.js";
import { Payer as Person } from "./payer.js";
import type { Shape } from "./shape.js";

export class Expense {
  items!: LineItem[][];
  payer!: Person;
  note?: Note | null;
  category?: Category;
  shape!: Shape;
  when!: Date;
}

class Category {
  name!: string;
}
`,
};

describe("class references of DTO fields", () => {
  let project: Awaited<ReturnType<typeof sourceProject>>;
  let code: string;
  const fieldOf = (name: string) =>
    new RegExp(`"${name}":\\{"schema":[^\\n]*?get target\\(\\) \\{ return (\\w+); \\}`);

  beforeAll(async () => {
    project = await sourceProject(FILES);
    const file = project.path("expense.ts");
    code = new SourceInfoReader().transform(file, await readFile(file, "utf8")).code;
  }, 60_000);
  afterAll(() => project?.remove());

  it("name a class of the same file, or a value import of it under its local name", () => {
    expect(code).toMatch(/"category":\{"schema":\{"type":"object".*?get target\(\) \{ return Category; \}\}/);
    expect(code).toMatch(/"payer":\{"schema":\{"type":"object".*?get target\(\) \{ return Person; \}\}/);
  });

  it("import a class imported for its type only again, as a value, after the last line", () => {
    const lines = code.split("\n");
    const original = FILES["expense.ts"].split("\n");
    expect(
      lines.slice(0, original.length - 1).map((line, index) => line.startsWith(original[index] ?? "\0")),
    ).not.toContain(false);
    expect(lines.slice(original.length - 1)).toEqual([
      "",
      'import { LineItem as __executaClass0 } from "./line-item.js";',
      'import __executaClass1 from "./line-item.js";',
    ]);
    // Through nested arrays and a nullable union alike.
    expect(code).toMatch(
      /"items":\{"schema":\{"type":"array","items":\{"type":"array","items":\{.*?get target\(\) \{ return __executaClass0; \}\}\}\}/,
    );
    expect(code).toMatch(fieldOf("note"));
    expect(fieldOf("note").exec(code)?.[1]).toBe("__executaClass1");
    // The class is the value's target, beside the union's null.
    expect(code).toMatch(
      /"note":\{"schema":\{"anyOf":\[\{"type":"object",.*?get target\(\) \{ return __executaClass1; \}\},\{"type":"null"\}\]\}/,
    );
  });

  it("are not recorded for an interface or a built-in class", () => {
    expect(code).not.toMatch(fieldOf("shape"));
    expect(code).not.toMatch(fieldOf("when"));
    expect(code.match(/get target\(\)/g)).toHaveLength(4);
  });
});
