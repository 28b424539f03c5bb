import type { NumericSchema, Schema } from "@executa/core";
import {
  isNullable,
  isUnknownDocTag,
  resultPath,
  type SourceField,
  type SourceParameter,
  withoutNull,
} from "@executa/core/internal";
import type * as ts from "typescript";
import { type DocComment, docOf, paramTagText } from "./doc-comments.js";
import { jsonLiteral, NOT_JSON } from "./json-literal.js";
import type { TypeScriptModule } from "./load-typescript.js";
import { type Position, SchemaReader, type TypeReading } from "./schema-of-type.js";

/** A member whose type has no faithful manifest form, for the build to report. */
export interface SourceInfoNote {
  /** `Class.method(param)`, `Class.field` or a nested path (`Class.field.sub`). */
  path: string;
  /** The type as written (its annotation), else as the checker prints it. */
  type: string;
  /** Why it has no manifest form. */
  reason: string;
  /** The position of the method parameter it belongs to, for a parameter or a type inside one. */
  index?: number;
  /** True for a type the analysis does not load (from an installed package): left to reflection. */
  unresolved?: boolean;
  /** True for a type whose values do not survive JSON as themselves (a function, a bigint, a Map). */
  lossy?: boolean;
}

/** Reads parameters, DTO fields and object properties into {@link SourceField}s. */
export class FieldReader {
  /** Members read so far whose types have no faithful manifest form. */
  readonly notes: SourceInfoNote[] = [];
  /** Doc-comment tags read so far that the schema does not know, by member path. */
  readonly unknownTags: { path: string; tag: string }[] = [];
  private readonly schemas: SchemaReader;

  constructor(
    private readonly tsm: TypeScriptModule,
    private readonly checker: ts.TypeChecker,
    program: ts.Program,
  ) {
    this.schemas = new SchemaReader(tsm, checker, program, (symbol, at) => this.property(symbol, at));
  }

  /** A parameter at runtime position `index`; undefined for a destructured one or one without a manifest type. */
  parameter(declaration: ts.ParameterDeclaration, index: number, path: string): SourceParameter | undefined {
    if (!this.tsm.isIdentifier(declaration.name)) return undefined;
    const name = declaration.name.text;
    const type = this.checker.getTypeAtLocation(declaration);
    const declaredOptional = Boolean(
      declaration.questionToken || declaration.initializer || declaration.dotDotDotToken,
    );
    const at = { depth: 0, seen: [], path: `${path}(${name})` };
    const field = this.field(declaration, type, declaredOptional, at);
    if (!field) return undefined;
    const description = field.description ?? paramTagText(this.tsm, declaration);
    return { name, index, ...field, ...(description ? { description } : {}) };
  }

  /**
   * The schema of what a method resolves to (its return type, a promise unwrapped), read at
   * path `Class.method()`; undefined for `void`, `undefined` or `never` and for a type
   * without a schema. A type without a faithful one, there or inside, is noted like a
   * parameter's (the decorators decide what becomes of it).
   */
  returns(declaration: ts.MethodDeclaration, path: string): Schema | undefined {
    const signature = this.checker.getSignatureFromDeclaration(declaration);
    if (!signature) return undefined;
    const returned = this.checker.getReturnTypeOfSignature(signature);
    const type = this.checker.getAwaitedType(returned) ?? returned;
    const F = this.tsm.TypeFlags;
    const members = type.isUnion() ? type.types : [type];
    if (members.every((member) => member.flags & (F.Undefined | F.Void | F.Never))) return undefined;
    const at = { depth: 0, seen: [], path: resultPath(path) };
    const firstNote = this.notes.length;
    const field = this.field(undefined, type, false, at, declaration.type);
    const notes = this.notes.splice(firstNote).filter((note) => !isDisplayPath(note.path, at.path));
    this.notes.push(...notes);
    return field && withoutDisplay(field.schema);
  }

  /** A property of a class (a DTO field), an interface, a type alias or an object literal type. */
  property(symbol: ts.Symbol, at: Position): SourceField | undefined {
    const S = this.tsm.SymbolFlags;
    if (symbol.flags & (S.Method | S.Accessor | S.Prototype) || symbol.name.startsWith("__#"))
      return undefined;
    const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
    if (declaration && this.hidden(declaration)) return undefined;
    const type = this.checker.getTypeOfSymbol(symbol);
    const initialized = declaration && this.tsm.isPropertyDeclaration(declaration) && declaration.initializer;
    const declaredOptional = Boolean(symbol.flags & S.Optional || initialized);
    return this.field(declaration, type, declaredOptional, at);
  }

  /** The symbol a class member declares. */
  symbolOf(declaration: ts.PropertyDeclaration): ts.Symbol | undefined {
    return this.checker.getSymbolAtLocation(declaration.name);
  }

  /** Whether a class member is invisible to callers: static, private or protected. */
  hidden(declaration: ts.Declaration): boolean {
    const M = this.tsm.ModifierFlags;
    return (this.tsm.getCombinedModifierFlags(declaration) & (M.Static | M.Private | M.Protected)) !== 0;
  }

  private field(
    declaration: ts.Declaration | undefined,
    type: ts.Type,
    declaredOptional: boolean,
    at: Position,
    annotation = annotationOf(this.tsm, declaration),
  ): SourceField | undefined {
    const reading = this.schemas.read(type, at);
    const typeText = annotation && oneLine(annotation);
    if (reading.unmapped) this.note(reading, at.path, typeText ?? this.checker.typeToString(type));
    if (!reading.schema) return undefined;
    const doc = declaration ? docOf(this.tsm, declaration) : undefined;
    if (doc) this.noteUnknownTags(doc, at.path);
    const schema =
      declaration && doc ? this.withNumberTags(reading.schema, declaration, doc) : reading.schema;
    const field: SourceField = { schema, optional: declaredOptional || includesUndefined(this.tsm, type) };
    if (typeText !== undefined) field.typeText = typeText;
    if (doc?.text) field.description = doc.text;
    const initializer = declaration && initializerOf(this.tsm, declaration);
    const value = initializer ? jsonLiteral(this.tsm, initializer) : NOT_JSON;
    if (value !== NOT_JSON) field.default = value;
    return field;
  }

  private noteUnknownTags(doc: DocComment, path: string): void {
    for (const tag of doc.tags.keys()) {
      if (isUnknownDocTag(tag)) this.unknownTags.push({ path, tag });
    }
  }

  private note(reading: TypeReading & { unmapped: string }, path: string, type: string): void {
    const note: SourceInfoNote = { path, type, reason: reading.unmapped };
    if (reading.unresolved) note.unresolved = true;
    if (reading.lossy) note.lossy = true;
    this.notes.push(note);
  }

  /**
   * `integer` from `@integer` or `@IsInt()`, bounds from `@minimum` / `@maximum`, on a
   * number (or a number or `null`) or its array's items.
   */
  private withNumberTags(schema: Schema, declaration: ts.Declaration, doc: DocComment): Schema {
    const value = withoutNull(schema);
    if (isNullable(schema) && !("anyOf" in value)) {
      return { ...schema, anyOf: [this.withNumberTags(value, declaration, doc), { type: "null" }] };
    }
    if ("type" in schema && schema.type === "array" && schema.items) {
      return { ...schema, items: this.withNumberTags(schema.items, declaration, doc) };
    }
    if (!("type" in schema) || schema.type !== "number") return schema;
    const tagged: { -readonly [K in keyof NumericSchema]: NumericSchema[K] } = { ...schema };
    if (doc.tags.has("integer") || decoratorNames(this.tsm, declaration).includes("IsInt")) {
      tagged.type = "integer";
    }
    const minimum = numberTag(doc, "minimum");
    const maximum = numberTag(doc, "maximum");
    if (minimum !== undefined) tagged.minimum = minimum;
    if (maximum !== undefined) tagged.maximum = maximum;
    return tagged;
  }
}

/** The names of the decorators on `node` (`IsInt` for `@IsInt()` and `@cv.IsInt()`). */
export function decoratorNames(tsm: TypeScriptModule, node: ts.Node): string[] {
  const decorators = tsm.canHaveDecorators(node) ? (tsm.getDecorators(node) ?? []) : [];
  return decorators.map((decorator) => {
    const callee = tsm.isCallExpression(decorator.expression)
      ? decorator.expression.expression
      : decorator.expression;
    if (tsm.isIdentifier(callee)) return callee.text;
    return tsm.isPropertyAccessExpression(callee) ? callee.name.text : "";
  });
}

/** Longest type text recorded; a longer annotation is cut and ends in `…`. */
const MAX_TYPE_TEXT = 120;

/**
 * A type annotation's text as written in the source (`() => void` for `done?: () => void`),
 * on one line and at most {@link MAX_TYPE_TEXT} characters: it is meant for messages.
 */
function oneLine(annotation: ts.TypeNode): string {
  const text = annotation.getText().replace(/\s+/g, " ").trim();
  return text.length > MAX_TYPE_TEXT ? `${text.slice(0, MAX_TYPE_TEXT - 1)}…` : text;
}

/** A result's schema (or its value type's, beside `null`) without its display blocks (see {@link isDisplayPath}). */
function withoutDisplay(schema: Schema): Schema {
  const value = withoutNull(schema);
  if (value !== schema && !("anyOf" in value)) {
    return { ...schema, anyOf: [withoutDisplay(value), { type: "null" }] };
  }
  if (!("type" in schema) || schema.type !== "object") return schema;
  if (!schema.properties || !("_display" in schema.properties)) return schema;
  const { _display: _, ...properties } = schema.properties;
  const required = schema.required?.filter((name) => name !== "_display");
  const { required: __, ...rest } = schema;
  return { ...rest, properties, ...(required !== undefined && required.length > 0 && { required }) };
}

/**
 * Whether a note is about the display blocks of a result (`withDisplay`'s `_display`):
 * they go to the client as content, not in the structured result, so need no schema.
 */
function isDisplayPath(path: string, resultPath: string): boolean {
  return path === `${resultPath}._display` || path.startsWith(`${resultPath}._display.`);
}

function annotationOf(
  tsm: TypeScriptModule,
  declaration: ts.Declaration | undefined,
): ts.TypeNode | undefined {
  if (
    !declaration ||
    !(
      tsm.isParameter(declaration) ||
      tsm.isPropertyDeclaration(declaration) ||
      tsm.isPropertySignature(declaration)
    )
  )
    return undefined;
  return declaration.type;
}

function numberTag(doc: DocComment, name: string): number | undefined {
  const text = doc.tags.get(name);
  const value = typeof text === "string" ? Number(text) : Number.NaN;
  return Number.isFinite(value) ? value : undefined;
}

function includesUndefined(tsm: TypeScriptModule, type: ts.Type): boolean {
  const members = type.isUnion() ? type.types : [type];
  return members.some((member) => (member.flags & (tsm.TypeFlags.Undefined | tsm.TypeFlags.Void)) !== 0);
}

function initializerOf(tsm: TypeScriptModule, declaration: ts.Declaration): ts.Expression | undefined {
  if (tsm.isParameter(declaration) || tsm.isPropertyDeclaration(declaration)) return declaration.initializer;
  return undefined;
}
