/**
 * The `Reflect` metadata API that decorator metadata needs (`Reflect.metadata`, which SWC's
 * and TypeScript's emitted `__metadata` / `_ts_metadata` helpers call, and
 * `Reflect.getMetadata`, which this package, class-validator and class-transformer read),
 * installed on the global `Reflect` unless a polyfill is there already.
 *
 * Why not `reflect-metadata/lite`: its body is one 9 KB function that V8 compiles lazily
 * when it first runs, at every start of every plugin; that alone was ~2 ms of a binary's
 * cold start here. This module is the subset of the same semantics plugins use.
 *
 * Interoperation, whichever loads first:
 * - `reflect-metadata` already loaded: nothing is installed; this package, SWC's helpers and
 *   the validators all go through it.
 * - `reflect-metadata` (≥ 0.2) loaded later: it finds these functions and no registry, and
 *   wraps them as its fallback provider, so metadata recorded before it came stays readable.
 *
 * `Reflect.decorate` is not installed: the emitted `__decorate` helpers apply decorators
 * themselves when it is absent.
 */

type Key = unknown;
type MemberKey = string | symbol | undefined;

/** target → property (undefined for the target itself) → metadata key → value. */
const store = new WeakMap<object, Map<MemberKey, Map<Key, unknown>>>();

function table(target: object, property: MemberKey, create: boolean): Map<Key, unknown> | undefined {
  let byProperty = store.get(target);
  if (byProperty === undefined) {
    if (!create) return undefined;
    byProperty = new Map();
    store.set(target, byProperty);
  }
  let byKey = byProperty.get(property);
  if (byKey === undefined) {
    if (!create) return undefined;
    byKey = new Map();
    byProperty.set(property, byKey);
  }
  return byKey;
}

function checked(target: unknown): object {
  if ((typeof target !== "object" || target === null) && typeof target !== "function") {
    throw new TypeError("Reflect metadata: the target must be an object or a function");
  }
  return target;
}

function defineMetadata(key: Key, value: unknown, target: object, property?: MemberKey): void {
  table(checked(target), property, true)!.set(key, value);
}

function hasOwnMetadata(key: Key, target: object, property?: MemberKey): boolean {
  return table(checked(target), property, false)?.has(key) ?? false;
}

function getOwnMetadata(key: Key, target: object, property?: MemberKey): unknown {
  return table(checked(target), property, false)?.get(key);
}

function getOwnMetadataKeys(target: object, property?: MemberKey): Key[] {
  const byKey = table(checked(target), property, false);
  return byKey === undefined ? [] : [...byKey.keys()];
}

function deleteMetadata(key: Key, target: object, property?: MemberKey): boolean {
  const byProperty = store.get(checked(target));
  const byKey = byProperty?.get(property);
  if (byKey === undefined || !byKey.delete(key)) return false;
  if (byKey.size === 0) byProperty!.delete(property);
  if (byProperty!.size === 0) store.delete(target);
  return true;
}

/** The tables of `target` and of its prototype chain, nearest first. */
function* tablesUpChain(target: object, property: MemberKey): Generator<Map<Key, unknown>> {
  for (let object: object | null = checked(target); object !== null; object = Object.getPrototypeOf(object)) {
    const byKey = table(object, property, false);
    if (byKey !== undefined) yield byKey;
  }
}

/** The nearest table holding `key`: the own one, else the prototype chain's, as `reflect-metadata` resolves it. */
function nearestWith(key: Key, target: object, property: MemberKey): Map<Key, unknown> | undefined {
  for (const byKey of tablesUpChain(target, property)) if (byKey.has(key)) return byKey;
  return undefined;
}

function getMetadata(key: Key, target: object, property?: MemberKey): unknown {
  return nearestWith(key, target, property)?.get(key);
}

function hasMetadata(key: Key, target: object, property?: MemberKey): boolean {
  return nearestWith(key, target, property) !== undefined;
}

/** Own keys first, then the prototype chain's, each once. */
function getMetadataKeys(target: object, property?: MemberKey): Key[] {
  const keys = new Set<Key>();
  for (const byKey of tablesUpChain(target, property)) for (const key of byKey.keys()) keys.add(key);
  return [...keys];
}

/** The decorator `@Reflect.metadata(key, value)`; what the emitted metadata helpers call. */
function metadata(key: Key, value: unknown) {
  return function decorator(target: object, property?: MemberKey): void {
    defineMetadata(key, value, target, property);
  };
}

const api = {
  defineMetadata,
  deleteMetadata,
  getMetadata,
  getMetadataKeys,
  getOwnMetadata,
  getOwnMetadataKeys,
  hasMetadata,
  hasOwnMetadata,
  metadata,
};

/**
 * Installs the metadata API on the global `Reflect` unless one is there. Returns whether
 * it installed (false: another polyfill, e.g. `reflect-metadata`, is in use).
 */
export function installMetadataPolyfill(): boolean {
  const reflect = Reflect as unknown as Record<string, unknown>;
  if (typeof reflect.getMetadata === "function" && typeof reflect.metadata === "function") return false;
  for (const [name, value] of Object.entries(api)) {
    Object.defineProperty(reflect, name, { configurable: true, writable: true, value });
  }
  return true;
}
