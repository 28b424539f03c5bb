import type { Schema, SchemaTarget } from "@executa/core";
import type * as ts from "typescript";
import type { TypeScriptModule } from "./load-typescript.js";

const EXPRESSION: unique symbol = Symbol("executa.class-expression");

/** A recorded class reference: a schema's `target`, which the emitted code writes as `get target() { return Expression; }`. */
export type ClassReference = SchemaTarget & { readonly [EXPRESSION]: string };

/**
 * A reference to the class `expression` names in the emitted code. It stands for the
 * class the emitted getter returns; read at build time it only says which expression that is.
 */
export function classReference(expression: string): ClassReference {
  const standIn = class {
    constructor() {
      throw new Error(`executa source reader: ${expression} is resolved where the emitted code runs`);
    }
  };
  return Object.assign(standIn, { [EXPRESSION]: expression });
}

/** The expression of a value made by {@link classReference}; undefined for anything else. */
export function expressionOf(value: unknown): string | undefined {
  return typeof value === "function" ? (value as Partial<ClassReference>)[EXPRESSION] : undefined;
}

/**
 * How the emitted code of one file names the classes of its DTO fields: the class's name
 * where the file has it in scope as a value, else a value import added for it (an
 * `import type`, which the compilers erase, leaves the name without a value). A class the
 * file does not import at all, or one from a declaration file, gets no reference: its
 * values stay plain objects, as without the source reader.
 */
export class ClassReferences {
  private readonly added = new Map<ts.Symbol, { name: string; statement: string }>();

  constructor(
    private readonly tsm: TypeScriptModule,
    private readonly checker: ts.TypeChecker,
    private readonly sourceFile: ts.SourceFile,
  ) {}

  /**
   * `schema` with `target` on the object (or the array elements, at any depth, or the
   * value of a union with `null`) whose type is a project class the emitted code can name
   * at `location`.
   */
  withTarget(schema: Schema, type: ts.Type, location: ts.Node): Schema {
    const single = this.withoutNullish(type);
    if (!single) return schema;
    if ("anyOf" in schema && schema.anyOf) {
      const anyOf = schema.anyOf.map((member) => this.withTarget(member, single, location));
      return anyOf.some((member, at) => member !== schema.anyOf?.[at]) ? { ...schema, anyOf } : schema;
    }
    if (!("type" in schema)) return schema;
    if (schema.type === "array" && schema.items && this.checker.isArrayType(single)) {
      const [element] = this.checker.getTypeArguments(single as ts.TypeReference);
      const items = element && this.withTarget(schema.items, element, location);
      return items && items !== schema.items ? { ...schema, items } : schema;
    }
    const symbol = single.getSymbol();
    if (schema.type !== "object" || !symbol || !(symbol.flags & this.tsm.SymbolFlags.Class)) return schema;
    const expression = this.expressionFor(symbol, location);
    return expression ? { ...schema, target: classReference(expression) } : schema;
  }

  /** The import declarations the references need, each on its own line (empty when none). */
  imports(): string {
    return [...this.added.values()].map((entry) => `\n${entry.statement}`).join("");
  }

  private withoutNullish(type: ts.Type): ts.Type | undefined {
    if (!type.isUnion()) return type;
    const F = this.tsm.TypeFlags;
    const present = type.types.filter((member) => !(member.flags & (F.Undefined | F.Null | F.Void)));
    return present.length === 1 ? present[0] : undefined;
  }

  private expressionFor(target: ts.Symbol, location: ts.Node): string | undefined {
    const declaration = target.valueDeclaration;
    if (!declaration || !this.tsm.isClassDeclaration(declaration)) return undefined;
    if (declaration.getSourceFile().isDeclarationFile) return undefined;
    if (this.valueInScope(target.name, target, location)) return target.name;
    for (const binding of this.importBindings()) {
      if (this.checker.getAliasedSymbol(binding.symbol) !== target) continue;
      if (!binding.typeOnly && this.valueInScope(binding.localName, target, location))
        return binding.localName;
      // An import statement is no use in a CommonJS module.
      return /\.c[jt]s$/.test(this.sourceFile.fileName) ? undefined : this.addImport(target, binding);
    }
    return undefined;
  }

  /** Whether `name` at `location` is `target` as a value: the class itself, or a value import of it. */
  private valueInScope(name: string, target: ts.Symbol, location: ts.Node): boolean {
    const S = this.tsm.SymbolFlags;
    const found = this.checker.resolveName?.(name, location, S.Value | S.Alias, false);
    if (!found) return false;
    if (found === target) return true;
    const binding =
      found.flags & S.Alias ? this.importBindings().find((entry) => entry.symbol === found) : undefined;
    return binding !== undefined && !binding.typeOnly && this.checker.getAliasedSymbol(found) === target;
  }

  /** A value import of `target` under a name of its own, from the module the type-only import names. */
  private addImport(target: ts.Symbol, binding: ImportBinding): string {
    const existing = this.added.get(target);
    if (existing) return existing.name;
    const name = `__executaClass${this.added.size}`;
    const from = JSON.stringify(binding.moduleSpecifier);
    const statement =
      binding.importedName === "default"
        ? `import ${name} from ${from};`
        : `import { ${binding.importedName} as ${name} } from ${from};`;
    this.added.set(target, { name, statement });
    return name;
  }

  private bindingsOfFile: ImportBinding[] | undefined;

  /** Every default and named import binding of the file. */
  private importBindings(): ImportBinding[] {
    this.bindingsOfFile ??= this.sourceFile.statements.flatMap((statement) =>
      this.tsm.isImportDeclaration(statement) ? this.bindingsOf(statement) : [],
    );
    return this.bindingsOfFile;
  }

  private bindingsOf(declaration: ts.ImportDeclaration): ImportBinding[] {
    const clause = declaration.importClause;
    if (!clause || !this.tsm.isStringLiteral(declaration.moduleSpecifier)) return [];
    const moduleSpecifier = declaration.moduleSpecifier.text;
    const bindings: ImportBinding[] = [];
    const add = (local: ts.Identifier, importedName: string, typeOnly: boolean) => {
      const symbol = this.checker.getSymbolAtLocation(local);
      if (symbol) bindings.push({ symbol, localName: local.text, importedName, moduleSpecifier, typeOnly });
    };
    if (clause.name) add(clause.name, "default", clause.isTypeOnly);
    const named = clause.namedBindings;
    if (named && this.tsm.isNamedImports(named)) {
      for (const element of named.elements) {
        const importedName = (element.propertyName ?? element.name).text;
        add(element.name, importedName, clause.isTypeOnly || element.isTypeOnly);
      }
    }
    return bindings;
  }
}

/** One name an import declaration binds. */
interface ImportBinding {
  symbol: ts.Symbol;
  localName: string;
  /** The exported name (`default` for a default import). */
  importedName: string;
  moduleSpecifier: string;
  typeOnly: boolean;
}
