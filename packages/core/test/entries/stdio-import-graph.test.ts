import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// A plugin served over stdio must not evaluate the MCP-over-HTTP stack, nor one without
// OTLP configured the OpenTelemetry glue: the bundler keeps a module reached only through
// `import()` in the one file but evaluates it when called.
// What a module evaluates at startup is what its static value imports reach.

const src = fileURLToPath(new URL("../../src/", import.meta.url));
const HTTP_SERVER = join(src, "mcp/http/http-server.ts");
const OTEL_GLUE = join(src, "telemetry/otel-telemetry.ts");

/** The relative modules a source file imports, split by how: evaluated with it, or on call. */
function importsOf(file: string): { eager: string[]; lazy: string[] } {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const eager: string[] = [];
  const lazy: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && !onlyTypes(node)) {
      eager.push(specifier(node.moduleSpecifier));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      eager.push(specifier(node.moduleSpecifier));
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      // A computed specifier names an optional package (jose, OpenTelemetry), never a module here.
      lazy.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const local = (names: string[]) =>
    names.filter((name) => name.startsWith(".")).map((name) => moduleFile(resolve(dirname(file), name)));
  return { eager: local(eager), lazy: local(lazy) };
}

/** `import { type A, type B } from "…"` is erased like `import type`. */
function onlyTypes(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause || clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

function specifier(node: ts.Expression): string {
  return (node as ts.StringLiteral).text;
}

function moduleFile(path: string): string {
  for (const candidate of [path.replace(/\.js$/, ".ts"), `${path}.ts`, join(path, "index.ts")]) {
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`no source for ${path}`);
}

/** Every module evaluated when `entry` is, and the modules they import only on call. */
function startupGraph(entry: string): { evaluated: Set<string>; onCall: Set<string> } {
  const evaluated = new Set<string>();
  const onCall = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (evaluated.has(file)) continue;
    evaluated.add(file);
    const { eager, lazy } = importsOf(file);
    pending.push(...eager);
    for (const target of lazy) onCall.add(target);
  }
  return { evaluated, onCall };
}

describe("what a plugin evaluates at startup", () => {
  it("reaches the MCP-over-HTTP server only through import(), from the package's entry", () => {
    const { evaluated, onCall } = startupGraph(join(src, "index.ts"));
    expect(evaluated.has(join(src, "server/create-server.ts"))).toBe(true);
    expect(evaluated.has(HTTP_SERVER)).toBe(false);
    expect(onCall.has(HTTP_SERVER)).toBe(true);
  });

  it("reaches the OpenTelemetry glue only through import(), from the package's entry", () => {
    const { evaluated, onCall } = startupGraph(join(src, "index.ts"));
    expect(evaluated.has(OTEL_GLUE)).toBe(false);
    expect(onCall.has(OTEL_GLUE)).toBe(true);
  });

  it("the check sees a static import as evaluated (its own test)", () => {
    const { evaluated } = startupGraph(join(src, "mcp/http/http-server.ts"));
    expect(evaluated.has(join(src, "mcp/http/session-table.ts"))).toBe(true);
  });
});
