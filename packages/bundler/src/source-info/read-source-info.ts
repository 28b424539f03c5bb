import {
  isInsideAResult,
  type SourceClass,
  type SourceField,
  type SourceMethod,
  type SourceParameter,
} from "@executa/core/internal";

type SourceUnsupported = NonNullable<SourceClass["unsupported"]>[number];

import type * as ts from "typescript";
import { ClassReferences } from "./class-reference.js";
import { docOf } from "./doc-comments.js";
import type { TypeScriptModule } from "./load-typescript.js";
import { packageVersionAbove } from "./package-version.js";
import { decoratorNames, FieldReader, type SourceInfoNote } from "./read-field.js";

/** The facts recorded for one class declaration of a file. */
export interface ClassSourceInfo {
  /** The class's name (the binding the emitted statement refers to). */
  name: string;
  /** Offset just after the class's closing brace. */
  end: number;
  info: SourceClass;
}

/** What {@link readSourceInfo} found in one file. */
export interface SourceInfoReading {
  classes: ClassSourceInfo[];
  notes: SourceInfoNote[];
  /** Import declarations the recorded class references need (see `ClassReferences`), or "". */
  imports: string;
}

/**
 * Reads, with the type checker of `program`, every named class declaration of
 * `sourceFile`, decorated or not: its doc comment, each decorated method's parameters
 * (name, position, optionality, JSON default, doc comment, schema; `@Ctx()` / `@Host()`
 * slots left out) and each public instance property (a DTO field).
 *
 * Undecorated classes are read too: a zero-annotation DTO (`@Args()`, a nested field's
 * class, a `createObject` target) carries no decorator, and which classes the plugin's
 * types reach is only known once every file is loaded, while each file is transformed on
 * its own. A class with nothing to record is still recorded (`{}`), so that the
 * decorators can tell "read, and it has no fields" from "never read".
 */
export function readSourceInfo(
  tsm: TypeScriptModule,
  program: ts.Program,
  sourceFile: ts.SourceFile,
): SourceInfoReading {
  const checker = program.getTypeChecker();
  const reader: ClassReader = {
    fields: new FieldReader(tsm, checker, program),
    references: new ClassReferences(tsm, checker, sourceFile),
    checker,
  };
  const classes: ClassSourceInfo[] = [];
  const visit = (node: ts.Node): void => {
    if (tsm.isClassDeclaration(node) && node.name && !isAmbient(tsm, node)) {
      classes.push({
        name: node.name.text,
        end: node.end,
        info: readClass(tsm, reader, node, node.name.text),
      });
    }
    tsm.forEachChild(node, visit);
  };
  visit(sourceFile);
  return { classes, notes: reader.fields.notes, imports: reader.references.imports() };
}

/** What reading the classes of one file uses. */
interface ClassReader {
  fields: FieldReader;
  references: ClassReferences;
  checker: ts.TypeChecker;
}

function readClass(
  tsm: TypeScriptModule,
  reader: ClassReader,
  node: ts.ClassDeclaration,
  name: string,
): SourceClass {
  const { fields } = reader;
  const info: { -readonly [K in keyof SourceClass]: SourceClass[K] } = {};
  const description = docOf(tsm, node).text;
  if (description) info.description = description;
  if (decoratorNames(tsm, node).includes("Plugin")) {
    const version = packageVersionAbove(node.getSourceFile().fileName);
    if (version) info.packageVersion = version;
  }
  const firstNote = fields.notes.length;
  const firstTag = fields.unknownTags.length;
  const { methods, properties } = readMembers(tsm, reader, node, name);
  if (Object.keys(methods).length > 0) info.methods = methods;
  if (Object.keys(properties).length > 0) info.fields = properties;
  const unsupported = unsupportedMembers(fields.notes.slice(firstNote), name);
  if (unsupported.length > 0) info.unsupported = unsupported;
  const unknownTags = fields.unknownTags
    .slice(firstTag)
    .map(({ path, tag }) => ({ member: path.slice(name.length + 1), tag }));
  if (unknownTags.length > 0) info.unknownTags = unknownTags;
  return info;
}

/** The decorated methods and the public properties of a class. */
function readMembers(tsm: TypeScriptModule, reader: ClassReader, node: ts.ClassDeclaration, name: string) {
  const { fields } = reader;
  const methods: Record<string, SourceMethod> = {};
  const properties: Record<string, SourceField> = {};
  for (const member of node.members) {
    const memberName = member.name && plainName(tsm, member.name);
    if (!memberName) continue;
    const path = `${name}.${memberName}`;
    if (tsm.isMethodDeclaration(member) && isDecoratedMethod(tsm, member)) {
      methods[memberName] = readMethod(tsm, fields, member, path);
    } else if (tsm.isPropertyDeclaration(member)) {
      const field = readField(reader, member, node, path);
      if (field) properties[memberName] = field;
    }
  }
  return { methods, properties };
}

/**
 * The class's notes as the decorators read them: members named relative to the class.
 * Types from installed packages are left out: the analysis does not load them, so it
 * cannot tell whether they have a manifest form, and reflection decides as without it.
 * Inside a method's result they stay, so that the output schema keeps such a property
 * (unconstrained) rather than losing it.
 */
function unsupportedMembers(notes: readonly SourceInfoNote[], className: string): SourceUnsupported[] {
  return notes
    .filter((note) => !note.unresolved || isInsideAResult(note.path))
    .map((note) => ({
      member: note.path.slice(className.length + 1),
      ...(note.index !== undefined && { index: note.index }),
      type: note.type,
      reason: note.reason,
      ...(note.lossy && { lossy: true }),
    }));
}

/**
 * A public instance property (a DTO field), with the class its values become instances of
 * when its type is a project class (or an array of one); undefined for a hidden one or one
 * without a manifest type.
 */
function readField(
  { fields, references, checker }: ClassReader,
  member: ts.PropertyDeclaration,
  owner: ts.ClassDeclaration,
  path: string,
): SourceField | undefined {
  if (fields.hidden(member)) return undefined;
  const symbol = fields.symbolOf(member);
  const field = symbol && fields.property(symbol, { depth: 0, seen: [], path });
  if (!symbol || !field) return field;
  const schema = references.withTarget(field.schema, checker.getTypeOfSymbol(symbol), owner);
  return schema === field.schema ? field : { ...field, schema };
}

function readMethod(
  tsm: TypeScriptModule,
  fields: FieldReader,
  node: ts.MethodDeclaration,
  path: string,
): SourceMethod {
  const parameters: SourceParameter[] = [];
  let index = 0;
  for (const declaration of node.parameters) {
    // `this: T` is erased: it takes no runtime position.
    if (tsm.isIdentifier(declaration.name) && declaration.name.text === "this") continue;
    if (isContextSlot(tsm, declaration)) {
      index += 1;
      continue;
    }
    const firstNote = fields.notes.length;
    const parameter = fields.parameter(declaration, index, path);
    for (const note of fields.notes.slice(firstNote)) note.index = index;
    if (parameter) parameters.push(parameter);
    index += 1;
  }
  const description = docOf(tsm, node).text;
  const returns = fields.returns(node, path);
  const visibility = visibilityOf(tsm, node);
  return {
    ...(description ? { description } : {}),
    parameters,
    ...(returns ? { returns } : {}),
    ...(visibility ? { visibility } : {}),
  };
}

/** `private` or `protected` as declared (a TypeScript modifier reflection cannot see); undefined when public. */
function visibilityOf(tsm: TypeScriptModule, node: ts.MethodDeclaration): SourceMethod["visibility"] {
  const flags = tsm.getCombinedModifierFlags(node);
  if (flags & tsm.ModifierFlags.Private) return "private";
  if (flags & tsm.ModifierFlags.Protected) return "protected";
  return undefined;
}

/** `@Ctx()` and `@Host()` parameters receive the runtime's objects, not arguments: nothing to record. */
function isContextSlot(tsm: TypeScriptModule, declaration: ts.ParameterDeclaration): boolean {
  return decoratorNames(tsm, declaration).some((name) => CONTEXT_DECORATORS.has(name));
}

const CONTEXT_DECORATORS = new Set(["Ctx", "Host"]);

function isDecoratedMethod(tsm: TypeScriptModule, node: ts.MethodDeclaration): boolean {
  return hasDecorators(tsm, node) || node.parameters.some((parameter) => hasDecorators(tsm, parameter));
}

function hasDecorators(tsm: TypeScriptModule, node: ts.Node): boolean {
  return tsm.canHaveDecorators(node) && (tsm.getDecorators(node)?.length ?? 0) > 0;
}

function isAmbient(tsm: TypeScriptModule, node: ts.ClassDeclaration): boolean {
  return (
    node.getSourceFile().isDeclarationFile ||
    (tsm.getCombinedModifierFlags(node) & tsm.ModifierFlags.Ambient) !== 0
  );
}

function plainName(tsm: TypeScriptModule, name: ts.PropertyName): string | undefined {
  if (tsm.isIdentifier(name) || tsm.isStringLiteral(name) || tsm.isNumericLiteral(name)) {
    return name.text === "__proto__" ? undefined : name.text;
  }
  return undefined;
}
