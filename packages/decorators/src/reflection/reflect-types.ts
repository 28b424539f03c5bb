/**
 * All reflection of this package: reading the `design:*` metadata TypeScript / SWC emit
 * under `emitDecoratorMetadata`, and mapping a reflected constructor to a parameter type.
 * Nothing else in the package calls `Reflect.getMetadata`.
 */
import { PARAMETER_TYPE_NAMES, PARAMETER_TYPES, type ParameterType } from "@executa/core";
import { formatOfConstructor, type ValueFormat } from "@executa/core/internal";

import { ReflectMetadata } from "./install-metadata.js";

function read(key: string, target: object, property: string): unknown {
  return ReflectMetadata.getMetadata(key, target, property);
}

/**
 * The reflected types of a method's parameters (`design:paramtypes`), or `undefined` when
 * the method carries no metadata at all (the code was compiled without it). An empty
 * array means the metadata is there and the method has no parameters.
 */
export function methodParamTypes(prototype: object, method: string): readonly unknown[] | undefined {
  const types = read("design:paramtypes", prototype, method);
  return Array.isArray(types) ? types : undefined;
}

/** The reflected type of a property (`design:type`), or `undefined` without metadata. */
export function propertyType(prototype: object, property: string): unknown {
  return read("design:type", prototype, property);
}

/** What a reflected type says about an argument. */
export type ReflectedKind =
  | {
      kind: "primitive";
      /** The type whose `reflectedFrom` names the constructor; `string` for a format's class (`Date`). */
      type: ParameterType;
      /** A format's class (`Date`, `URL`): sent as a string, turned into the object before the method runs. */
      format?: ValueFormat;
    }
  /** A user class: a nested DTO for properties, uninferable for `@Param`. */
  | { kind: "class"; class: Function }
  /** `Object` (`any`, `unknown`, unions, interfaces, type aliases) or nothing useful. */
  | { kind: "unknown"; label: string };

/**
 * Maps a reflected constructor: the one a parameter type's `reflectedFrom` names → that
 * type (`String` → string, `Number` → number, `Boolean` → boolean, `Array` → array),
 * a format's class → a string in that format (`Date` → date-time, `URL` → uri), another class → class. `Object`, `Function`, `Promise`, …
 * are unknown: the caller must get the type from somewhere else or fail.
 */
export function classifyReflectedType(type: unknown): ReflectedKind {
  const primitive = REFLECTED_PRIMITIVES.get(type);
  if (primitive) return { kind: "primitive", type: primitive };
  const format = formatOfConstructor(type);
  if (format) return { kind: "primitive", type: "string", format };
  if (typeof type !== "function") return { kind: "unknown", label: String(type) };
  if (BUILT_INS.has(type)) return { kind: "unknown", label: type.name };
  return { kind: "class", class: type };
}

/** The global constructors parameter types are reflected from, to their types. */
const REFLECTED_PRIMITIVES = new Map<unknown, ParameterType>(
  PARAMETER_TYPE_NAMES.flatMap((name) => {
    const constructorName = PARAMETER_TYPES[name].reflectedFrom;
    const reflected: unknown = constructorName && Reflect.get(globalThis, constructorName);
    return typeof reflected === "function" ? [[reflected, name] as const] : [];
  }),
);

const BUILT_INS = new Set<unknown>([
  Object,
  Function,
  Promise,
  Map,
  Set,
  RegExp,
  Symbol,
  BigInt,
  Error,
  typeof Buffer === "undefined" ? undefined : Buffer,
  Uint8Array,
]);
