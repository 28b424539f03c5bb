import { getMetadataStorage } from "../metadata/storage.js";

/** Where a method/property decorator landed, or `undefined` after recording why it cannot be used there. */
export interface MemberTarget {
  /** The class (constructor) the member belongs to. */
  target: Function;
  name: string;
}

/**
 * Normalizes a legacy member decorator's `(target, key)`: instance members only, string
 * names only. A misuse is recorded for the builder to report, never thrown here (a throw
 * would surface as an unreadable error while the module is still loading).
 */
export function memberTarget(
  decorator: string,
  target: object,
  key: string | symbol | undefined,
): MemberTarget | undefined {
  const isStatic = typeof target === "function";
  const ctor = (isStatic ? target : target.constructor) as Function;
  if (key === undefined) {
    getMetadataStorage().addMisuse({
      target: ctor,
      member: "constructor",
      problem: `${decorator} is used on a constructor parameter`,
      fix: `use ${decorator} on a parameter of a tool method; constructor arguments come from serve(Class, { factory })`,
    });
    return undefined;
  }
  if (typeof key === "symbol") {
    getMetadataStorage().addMisuse({
      target: ctor,
      member: key.toString(),
      problem: `${decorator} is used on a symbol-named member`,
      fix: "give the member a string name",
    });
    return undefined;
  }
  if (isStatic) {
    getMetadataStorage().addMisuse({
      target: ctor,
      member: key,
      problem: `${decorator} is used on a static member`,
      fix: "make the member an instance member (drop `static`); the plugin runs as one instance",
    });
    return undefined;
  }
  return { target: ctor, name: key };
}
