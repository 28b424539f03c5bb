/**
 * Error identity that survives two copies of a package in one process (its ESM and CommonJS
 * builds, or two installed versions): `instanceof` alone compares constructors, so an
 * error made by one copy would not be recognized by the other and would lose its code.
 *
 * A class opts in with a static `brand` of its own, a `Symbol.for` key (one registry per
 * process, shared by every copy). Its instances carry the brand of each class in their
 * chain, and `instanceof` also accepts a value carrying the checked class's own brand.
 */

/** A class that can carry a brand. */
interface BrandableClass {
  readonly brand?: symbol;
}

/** The brand key of an error class, from its stable name. */
export function errorBrand(name: string): symbol {
  return Symbol.for(`executa.error.${name}`);
}

/** Marks `instance` with the brand of every class from `newTarget` up its chain. */
export function markBrands(instance: object, newTarget: Function): void {
  for (let cls: unknown = newTarget; typeof cls === "function"; cls = Object.getPrototypeOf(cls)) {
    if (!Object.hasOwn(cls, "brand")) continue;
    const brand = (cls as BrandableClass).brand;
    if (typeof brand === "symbol") Object.defineProperty(instance, brand, { value: true });
  }
}

/**
 * `value instanceof cls`, also true when `value` was made by another copy of `cls`: it
 * carries `cls`'s own brand. A subclass without a brand of its own is checked by prototype only.
 */
export function isBrandedInstance(cls: Function, value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(cls, value)) return true;
  if (typeof value !== "object" || value === null || !Object.hasOwn(cls, "brand")) return false;
  const brand = (cls as BrandableClass).brand;
  return typeof brand === "symbol" && (value as Record<symbol, unknown>)[brand] === true;
}
