/** A class's name as messages show it. */
export function classNameOf(ctor: Function): string {
  return ctor.name || "(anonymous class)";
}
