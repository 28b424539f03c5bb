import { PARAMETER_TYPE_NAMES, PARAMETER_TYPES, type ParameterType, type Schema } from "@executa/core";
import { formatOfClassName, type SourceField, type ValueFormat } from "@executa/core/internal";
import type * as ts from "typescript";
import type { TypeScriptModule } from "./load-typescript.js";

/** How deep nested object shapes are followed; deeper objects are recorded as a bare `object`. */
export const MAX_OBJECT_DEPTH = 6;

/**
 * A type read from the checker: its schema, or why it has no faithful manifest form. For
 * such a type `schema` is what reflection (`design:type`) would say anyway (`object` for
 * `any`, `unknown`, a mixed union or a generic, `array` for a tuple), so the recorded
 * facts never contradict reflection; it is absent where reflection has no manifest type
 * either (a function, `bigint`, `symbol`), and the member is then not recorded at all.
 * `lossy` marks a type whose values do not survive JSON as themselves (a function, a
 * `bigint`, a `symbol`, a `Map`).
 */
export type TypeReading =
  | { schema: Schema; unmapped?: undefined; unresolved?: undefined; lossy?: undefined }
  | { schema?: Schema; unmapped: string; unresolved?: boolean; lossy?: boolean };

type Literal = string | number | boolean;

/** The part of a type reader that reads fields (implemented in read-field.ts, passed in to avoid a cycle). */
export type FieldOf = (symbol: ts.Symbol, at: Position) => SourceField | undefined;

/** Where a type is read: nesting depth, the object types around it (cycle guard) and its path for messages. */
export interface Position {
  depth: number;
  seen: readonly ts.Type[];
  path: string;
}

/** Maps checker types to {@link Schema}s. */
export class SchemaReader {
  constructor(
    private readonly tsm: TypeScriptModule,
    private readonly checker: ts.TypeChecker,
    private readonly program: ts.Program,
    private readonly fieldOf: FieldOf,
  ) {}

  /** The schema of `type` (`undefined` members of a union are left out; a `null` one is an `anyOf` member). */
  read(type: ts.Type, at: Position): TypeReading {
    const F = this.tsm.TypeFlags;
    const members = type.isUnion() ? type.types : [type];
    const present = members.filter((member) => !(member.flags & (F.Undefined | F.Null | F.Void)));
    if (present.length === 0) return { schema: { type: "object" }, unmapped: "only undefined or null" };
    const [only] = present;
    const reading = present.length === 1 && only ? this.readSingle(only, at) : this.readUnion(present, at);
    const withNull = members.some((member) => member.flags & F.Null);
    return withNull && reading.schema ? { ...reading, schema: orNull(reading.schema) } : reading;
  }

  private readSingle(type: ts.Type, at: Position): TypeReading {
    const F = this.tsm.TypeFlags;
    const base = baseOf(this.tsm, type);
    if (base) {
      const value = literalOf(this.tsm, this.checker, type);
      return { schema: value === undefined ? typeSchema(base) : enumSchema(base, [value]) };
    }
    if (isUnresolved(type))
      return { unmapped: "a type the analysis does not load (from an installed package)", unresolved: true };
    // `object` says what the manifest's bare `object` says: any JSON object.
    if (type.flags & F.NonPrimitive) return { schema: { type: "object" } };
    if (type.flags & (F.Any | F.Unknown)) return erased("object", "any or unknown");
    if (type.flags & F.TypeParameter) return erased("object", "a generic type parameter");
    if (type.flags & F.Never) return { unmapped: "never" };
    if (type.flags & (F.BigIntLike | F.ESSymbolLike)) return { unmapped: "bigint or symbol", lossy: true };
    if (type.isIntersection()) return this.readIntersection(type, at);
    if (!(type.flags & F.Object)) return erased("object", "an unsupported type", true);
    return this.readObjectType(type, at);
  }

  /** An object type: a function, a format's class (Date, URL), an array, a tuple, a record, a built-in class or a shape. */
  private readObjectType(type: ts.Type, at: Position): TypeReading {
    if (type.getCallSignatures().length > 0) return { unmapped: "a function", lossy: true };
    const format = this.formatOf(type);
    if (format) return { schema: { type: "string", format } };
    if (this.isAnyRecord(type)) return { schema: { type: "object" } };
    if (this.checker.isTupleType(type)) return erased("array", "a tuple");
    if (this.checker.isArrayType(type)) return this.readArray(type as ts.TypeReference, at);
    if (this.isLibType(type)) return erased("object", builtInReason(type), true);
    return { schema: this.readObject(type, at) };
  }

  private readArray(type: ts.TypeReference, at: Position): TypeReading {
    const [element] = this.checker.getTypeArguments(type);
    const items = element
      ? this.read(element, { ...at, depth: at.depth + 1, path: `${at.path}[]` })
      : undefined;
    if (!items?.schema || items.unmapped) {
      const why = `its elements are ${items?.unmapped ?? "untyped"}`;
      return {
        schema: { type: "array" },
        unmapped: why,
        ...(items?.unresolved && { unresolved: true }),
        ...(items?.lossy && { lossy: true }),
      };
    }
    return { schema: { type: "array", items: items.schema } };
  }

  private readObject(type: ts.Type, at: Position): Schema {
    if (at.depth >= MAX_OBJECT_DEPTH || at.seen.includes(type)) return { type: "object" };
    const seen = [...at.seen, type];
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const property of this.checker.getPropertiesOfType(type)) {
      if (property.name === "__proto__") continue;
      const field = this.fieldOf(property, {
        depth: at.depth + 1,
        seen,
        path: `${at.path}.${property.name}`,
      });
      if (!field) continue;
      properties[property.name] = propertySchema(field);
      if (!field.optional) required.push(property.name);
    }
    return { type: "object", properties, ...(required.length > 0 && { required }) };
  }

  /** A branded primitive (`string & { __brand: "Id" }`) is its primitive; other intersections are objects. */
  private readIntersection(type: ts.IntersectionType, at: Position): TypeReading {
    const base = type.types.map((member) => baseOf(this.tsm, member)).find((found) => found !== undefined);
    if (base) return { schema: typeSchema(base) };
    return { schema: this.readObject(type, at) };
  }

  private readUnion(members: readonly ts.Type[], at: Position): TypeReading {
    const bases = new Set(members.map((member) => baseOf(this.tsm, member)));
    const [base] = bases;
    if (bases.size !== 1 || !base) return this.readMixedUnion(members, at);
    return this.readSameBaseUnion(base, members);
  }

  /**
   * A union of different types is still noted (an argument cannot be one: its manifest
   * form has one type, and reflection says `object`); where every member has a faithful
   * schema, `anyOf` lists them (literals of one base grouped into one enum), for a
   * result's JSON Schema; else it is what reflection says, `object`.
   */
  private readMixedUnion(members: readonly ts.Type[], at: Position): TypeReading {
    const groups = new Map<ParameterType | ts.Type, ts.Type[]>();
    for (const member of members) {
      const key = baseOf(this.tsm, member) ?? member;
      groups.set(key, [...(groups.get(key) ?? []), member]);
    }
    const anyOf: Schema[] = [];
    for (const [key, group] of groups) {
      const reading = typeof key === "string" ? this.readSameBaseUnion(key, group) : this.readSingle(key, at);
      if (!reading.schema || reading.unmapped) return erased("object", MIXED_UNION);
      anyOf.push(reading.schema);
    }
    return { schema: { anyOf }, unmapped: MIXED_UNION };
  }

  private readSameBaseUnion(base: ParameterType, members: readonly ts.Type[]): TypeReading {
    const values = members.map((member) => literalOf(this.tsm, this.checker, member));
    if (values.some((value) => value === undefined)) return { schema: typeSchema(base) };
    const unique = [...new Set(values as Literal[])];
    // true | false is just boolean.
    if (base === "boolean" && unique.length === 2) return { schema: { type: "boolean" } };
    const names = numericEnumNames(this.tsm, members);
    const schema = enumSchema(base, unique);
    return {
      schema: names && names.length === unique.length ? ({ ...schema, enumNames: names } as Schema) : schema,
    };
  }

  /** `Record<string, unknown>` (or `any`), `{ [key: string]: unknown }`: any JSON object, like `object`. */
  private isAnyRecord(type: ts.Type): boolean {
    const F = this.tsm.TypeFlags;
    const byString = this.checker.getIndexInfoOfType(type, this.tsm.IndexKind.String);
    return (
      byString !== undefined &&
      (byString.type.flags & (F.Any | F.Unknown)) !== 0 &&
      this.checker.getPropertiesOfType(type).length === 0
    );
  }

  /** The format of a built-in class sent as a string (`Date` → `date-time`, `URL` → `uri`), not a project's own class. */
  private formatOf(type: ts.Type): ValueFormat | undefined {
    const format = formatOfClassName(type.getSymbol()?.getName() ?? "");
    return format && this.isLibType(type) ? format : undefined;
  }

  /** Whether a file declares the environment: the default library or a package of `@types` (Node's `URL`, `Buffer`). */
  private isEnvironmentFile(file: ts.SourceFile): boolean {
    return (
      this.program.isSourceFileDefaultLibrary(file) || /[/\\]node_modules[/\\]@types[/\\]/.test(file.fileName)
    );
  }

  /**
   * Whether `type` is a class or interface of the environment: the default library (`Map`,
   * `Promise`, …) or the declared types (`@types/node`'s `Buffer`).
   */
  private isLibType(type: ts.Type): boolean {
    const symbol = type.getSymbol();
    if (!symbol) return false;
    // A mapped type of the library (`Partial<T>`, `Record<K, V>`) is a plain shape, not a class.
    if (!(symbol.flags & (this.tsm.SymbolFlags.Class | this.tsm.SymbolFlags.Interface))) return false;
    const declarations = symbol.getDeclarations() ?? [];
    return (
      declarations.length > 0 &&
      declarations.every((declaration) => this.isEnvironmentFile(declaration.getSourceFile()))
    );
  }
}

/** The checker's error type: a name it could not resolve (an import from a package left out of the program). */
function isUnresolved(type: ts.Type): boolean {
  return (type as { intrinsicName?: string }).intrinsicName === "error";
}

/** The member names of a numeric TypeScript enum's values (`Priority.High` → `High`); undefined for other unions. */
function numericEnumNames(tsm: TypeScriptModule, members: readonly ts.Type[]): string[] | undefined {
  const F = tsm.TypeFlags;
  const numericMembers = members.every(
    (member) => member.flags & F.EnumLiteral && member.isNumberLiteral() && member.getSymbol() !== undefined,
  );
  return numericMembers ? members.map((member) => member.getSymbol()?.getName() as string) : undefined;
}

/** An enum of `base` values; numbers that are all whole are an `integer` enum. */
function enumSchema(base: ParameterType, values: readonly Literal[]): Schema {
  const whole = base === "number" && values.every((value) => Number.isInteger(value));
  return { type: whole ? "integer" : base, enum: values } as Schema;
}

/** The schema of any value of the parameter type `type`. */
function typeSchema(type: ParameterType): Schema {
  return { type } as Schema;
}

/** `schema` or `null`: one `anyOf` (a union's members and `null` side by side). */
function orNull(schema: Schema): Schema {
  const members = "anyOf" in schema && schema.anyOf !== undefined ? schema.anyOf : [schema];
  return { anyOf: [...members, { type: "null" }] };
}

/**
 * A property's schema inside its object: its type's, with the property's doc comment as
 * `description` and its JSON initializer as `default` (whether it is required is the
 * object's `required`).
 */
function propertySchema(field: SourceField): Schema {
  return {
    ...field.schema,
    ...(field.description && { description: field.description }),
    ...(field.default !== undefined && { default: field.default }),
  };
}

/** Why a built-in class has no manifest form: JSON does not carry its values as themselves. */
function builtInReason(type: ts.Type): string {
  const name = type.getSymbol()?.getName() ?? "built-in class";
  return `a ${name}, which JSON does not carry as itself`;
}

const MIXED_UNION = "a union of different types";

function erased(type: ParameterType, why: string, lossy?: boolean): TypeReading {
  return { schema: typeSchema(type), unmapped: why, ...(lossy && { lossy }) };
}

/** The parameter types that TypeScript type flags decide, with the flags' member names, in the table's order. */
const FLAGGED_TYPES = PARAMETER_TYPE_NAMES.flatMap((name) => {
  const flags = PARAMETER_TYPES[name].typeScriptFlags;
  return flags === undefined ? [] : [{ name, flags: flags as keyof typeof ts.TypeFlags }];
});

/**
 * The JSON base type of a primitive or literal type (enum members included): the first
 * parameter type whose `typeScriptFlags` the type has (`StringLike` → string, `NumberLike`
 * → number, `BooleanLike` → boolean).
 */
function baseOf(tsm: TypeScriptModule, type: ts.Type): ParameterType | undefined {
  return FLAGGED_TYPES.find(({ flags }) => type.flags & tsm.TypeFlags[flags])?.name;
}

/** The value of a literal type (`"metric"`, `3`, `true`, an enum member), else undefined. */
function literalOf(tsm: TypeScriptModule, checker: ts.TypeChecker, type: ts.Type): Literal | undefined {
  if (type.isStringLiteral() || type.isNumberLiteral()) return type.value;
  if (type.flags & tsm.TypeFlags.BooleanLiteral) return checker.typeToString(type) === "true";
  return undefined;
}
