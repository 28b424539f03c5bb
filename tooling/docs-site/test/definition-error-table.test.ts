import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The guide's startup-error table is the author's list of DefinitionError codes: exactly the
// members of DefinitionErrorCode, once each, each with what its Fix: line asks.
const root = fileURLToPath(new URL("../../../", import.meta.url));
const guide = readFileSync(join(root, "docs/guide/tools-and-schemas.md"), "utf8");
const source = join(root, "packages/decorators/src/errors/definition-error.ts");

/** The string literals of the `DefinitionErrorCode` union, read from its declaration. */
function declaredCodes(): string[] {
  const file = ts.createSourceFile(source, readFileSync(source, "utf8"), ts.ScriptTarget.Latest, true);
  const alias = file.statements.find(
    (node): node is ts.TypeAliasDeclaration =>
      ts.isTypeAliasDeclaration(node) && node.name.text === "DefinitionErrorCode",
  );
  if (!alias || !ts.isUnionTypeNode(alias.type))
    throw new Error("DefinitionErrorCode is not a union any more");
  return alias.type.types.map((member) => {
    if (!ts.isLiteralTypeNode(member) || !ts.isStringLiteral(member.literal)) {
      throw new Error(`DefinitionErrorCode has a member that is not a string literal: ${member.getText()}`);
    }
    return member.literal.text;
  });
}

/** The rows of the table under `## Startup errors`: code, case and fix cells. */
function tableRows(): { code: string; case: string; fix: string }[] {
  const from = guide.indexOf("\n## Startup errors\n");
  const section = guide.slice(from, guide.indexOf("\n## ", from + 1));
  return [...section.matchAll(/^\| `([A-Z_]+)` \|(.*)\|$/gm)].map((match) => {
    const cells = match[2]!.split(" | ").map((cell) => cell.trim());
    return { code: match[1]!, case: cells[0] ?? "", fix: cells[1] ?? "" };
  });
}

describe("the guide's DefinitionError table", () => {
  it("has a Fix: column", () => {
    expect(guide).toMatch(/^\| code \| case \| Fix: \|$/m);
  });

  it("lists exactly the DefinitionErrorCode values, once each, in their declared order", () => {
    const codes = declaredCodes();
    expect(codes.length).toBeGreaterThan(20);
    expect(tableRows().map((row) => row.code)).toEqual(codes);
  });

  it("says, for every code, the case and what the Fix: asks", () => {
    for (const row of tableRows()) {
      expect(row.case, row.code).not.toBe("");
      expect(row.fix, row.code).not.toBe("");
    }
  });
});
