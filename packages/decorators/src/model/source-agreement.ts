import { PARAMETER_TYPES, type Schema } from "@executa/core";
import { codecNamed, withoutNull } from "@executa/core/internal";
import { DefinitionError } from "../errors/definition-error.js";
import type { ReflectedKind } from "../reflection/reflect-types.js";
import { sourceType } from "./source-schema.js";
import { withTypeOption } from "./unsupported-type.js";

/** One member whose reflected type and recorded source facts are compared. */
export interface AgreementInput {
  className: string;
  /** E.g. `getWeather, parameter #0 "city"` or `days (@Args() of Weather.getForecast)`. */
  member: string;
  /** The decorator named in the fix: `@Param("city", …)` or `@Field()`. */
  decorator: string;
  reflected: ReflectedKind;
  source: Schema;
  /** The member's type annotation as written (`SourceField.typeText`), named in the message when recorded. */
  typeText?: string | undefined;
}

/**
 * Checks that what reflection says about a member does not contradict the source facts
 * recorded at build time. Reflection only knows a constructor, so `Object` (aliases,
 * interfaces, unions, `any`) contradicts nothing; `String`, `Number`, `Boolean`, `Array`,
 * a format's class (`Date`, `URL`) and a user class each admit only the source types they can stand for. A
 * contradiction means the facts are stale or the reader misread the type: a
 * `SOURCE_MISMATCH` {@link DefinitionError} rather than a manifest built on one of them.
 * Callers skip the check when an explicit `type` option decides the type.
 */
export function checkSourceAgreement(input: AgreementInput): void {
  const { reflected, source } = input;
  if (agrees(reflected, source)) return;
  throw new DefinitionError(
    "SOURCE_MISMATCH",
    input.className,
    input.member,
    `reflection says ${reflectedName(reflected)} but the source analysis recorded ` +
      `${recordedType(source, input.typeText)}`,
    "rebuild so that the recorded source facts are current (executa build, executa dev, the executa " +
      `vitest plugin in tests); or give an explicit type in ${withTypeOption(input.decorator)}, which ` +
      "always wins and skips this check",
  );
}

function agrees(reflected: ReflectedKind, recorded: Schema): boolean {
  if (reflected.kind === "unknown") return true;
  const source = { type: sourceType(recorded), format: formatOf(recorded) };
  if (reflected.kind === "class") return source.type === "object";
  if (reflected.format !== undefined) return source.type === "string" && source.format === reflected.format;
  // `Number` stands for whole numbers too: the source analysis tells them apart.
  if (reflected.type === "number") return source.type === "number" || source.type === "integer";
  return source.type === reflected.type;
}

/** The constructor reflection reported. */
function reflectedName(reflected: ReflectedKind): string {
  if (reflected.kind === "unknown") return reflected.label;
  if (reflected.kind === "class") return reflected.class.name || "an anonymous class";
  if (reflected.format !== undefined) return codecNamed(reflected.format)?.typeName ?? reflected.format;
  return PARAMETER_TYPES[reflected.type].reflectedFrom ?? reflected.type;
}

/**
 * The recorded type for the message: as written when the reader kept the annotation, with
 * what its schema says next to it when that tells more (`Units ("metric" | "imperial")`);
 * the schema's text alone otherwise.
 */
function recordedType(schema: Schema, typeText: string | undefined): string {
  const fromSchema = writtenType(schema);
  if (typeText === undefined || typeText === "") return fromSchema;
  const compact = (text: string) => text.replace(/\s+/g, "");
  if (compact(typeText) === compact(fromSchema)) return typeText;
  // `number` for `number (integer)`: the schema's text already starts with what was written.
  if (fromSchema.startsWith(`${typeText} (`)) return fromSchema;
  return `${typeText} (${fromSchema})`;
}

/**
 * The source's type as far as its schema tells: `string`, `"a" | "b"`, `number[]`, `Date`,
 * `URL` (of a nullable type, its value type).
 */
function writtenType(recorded: Schema): string {
  const schema = withoutNull(recorded);
  const format = formatOf(schema);
  if (format !== undefined) return codecNamed(format)?.typeName ?? format;
  if ("enum" in schema && schema.enum !== undefined && schema.enum.length > 0)
    return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  const type = sourceType(schema);
  if (type === "array")
    return "items" in schema && schema.items ? `${elementType(schema.items)}[]` : "an array";
  if (type === "object") return "an object";
  return type === "integer" ? "number (integer)" : type;
}

/** The format of a recorded string (or string or `null`). */
function formatOf(recorded: Schema): string | undefined {
  const schema = withoutNull(recorded);
  return "format" in schema ? schema.format : undefined;
}

function elementType(schema: Schema): string {
  const written = writtenType(schema);
  return /[ |]/.test(written) ? `(${written})` : written;
}
