import { builtInClassNames, type SourceClass, sourceInfoOf } from "@executa/core/internal";
import { DefinitionError } from "../errors/definition-error.js";
import { lineage } from "../metadata/storage.js";

/** A member type the source reader found without a faithful manifest form. */
export type UnsupportedType = NonNullable<SourceClass["unsupported"]>[number];

/** The first unsupported type recorded for parameter `index` of `methodName` (or a type inside it). */
export function unsupportedParameter(
  target: Function,
  methodName: string,
  index: number,
): UnsupportedType | undefined {
  return sourceInfoOf(target)?.unsupported?.find(
    (entry) => entry.index === index && entry.member.startsWith(`${methodName}(`),
  );
}

/** The first unsupported type recorded for DTO property `property` (or a type inside it), ancestors included. */
export function unsupportedField(dto: Function, property: string): UnsupportedType | undefined {
  for (const ctor of lineage(dto)) {
    const found = sourceInfoOf(ctor)?.unsupported?.find(
      (entry) =>
        entry.index === undefined &&
        (entry.member === property ||
          entry.member.startsWith(`${property}.`) ||
          entry.member.startsWith(`${property}[`)),
    );
    if (found) return found;
  }
  return undefined;
}

/**
 * The `UNSUPPORTED_TYPE` error of an argument whose TypeScript type the manifest cannot
 * describe and that no explicit `type` overrides: never a silent `object` or a dropped
 * member. `decorator` is the one named in the fix (`@Param("city", …)`, `@Field()`).
 */
export function unsupportedTypeError(
  className: string,
  member: string,
  unsupported: UnsupportedType,
  decorator: string,
): DefinitionError {
  const nested = /^[^(]*\([^)]*\)$|^[^.[]*$/.test(unsupported.member) ? "" : ` (at ${unsupported.member})`;
  return new DefinitionError(
    "UNSUPPORTED_TYPE",
    className,
    member,
    `the TypeScript type \`${unsupported.type}\`${nested} has no faithful manifest form: ${unsupported.reason}`,
    `give an explicit type in ${withTypeOption(decorator)} (string, number, integer, boolean, array or ` +
      "object; the value then arrives as sent), or change the TypeScript type to one the manifest " +
      "describes: string, number, boolean, a literal union or enum, an array of those, an interface, " +
      `type alias or DTO class, or ${formatClassNames()}`,
  );
}

/** The classes sent as formatted strings, for fixes: `Date or URL`. */
export function formatClassNames(): string {
  return builtInClassNames().join(" or ");
}

/** `@Param("city", …)` → `@Param("city", { type: … })`; `@Field()` → `@Field({ type: … })`. */
export function withTypeOption(decorator: string): string {
  if (decorator.endsWith("…)")) return `${decorator.slice(0, -2)}{ type: … })`;
  return decorator.replace(/\(\)$/, "({ type: … })");
}
