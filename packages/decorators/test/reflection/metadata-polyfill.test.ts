import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import "@executa/decorators";
import { installMetadataPolyfill } from "../../src/reflection/metadata-polyfill.js";
import { type BuiltFixture, bundleWithTsup } from "../helpers/build-fixture.js";

// The test file imports @executa/decorators and nothing loads reflect-metadata into this
// process, so the global Reflect API below is the package's own polyfill.
interface MetadataApi {
  defineMetadata(key: unknown, value: unknown, target: object, property?: string | symbol): void;
  deleteMetadata(key: unknown, target: object, property?: string | symbol): boolean;
  getMetadata(key: unknown, target: object, property?: string | symbol): unknown;
  getMetadataKeys(target: object, property?: string | symbol): unknown[];
  getOwnMetadata(key: unknown, target: object, property?: string | symbol): unknown;
  getOwnMetadataKeys(target: object, property?: string | symbol): unknown[];
  hasMetadata(key: unknown, target: object, property?: string | symbol): boolean;
  hasOwnMetadata(key: unknown, target: object, property?: string | symbol): boolean;
  metadata(key: unknown, value: unknown): (target: object, property?: string | symbol) => void;
}
const api = Reflect as unknown as MetadataApi;

describe("the built-in Reflect metadata API", () => {
  test("is installed by importing the package, and not installed twice", () => {
    expect(Symbol.for("@reflect-metadata:registry") in Reflect).toBe(false);
    expect(typeof api.metadata).toBe("function");
    const before = api.getMetadata;
    expect(installMetadataPolyfill()).toBe(false);
    expect(api.getMetadata).toBe(before);
  });

  test("records the design:* metadata that SWC emits for decorated members", () => {
    const mark = () => (_target: object, _property: string) => {};
    class Service {
      @mark()
      run(_name: string, _count: number, _flag: boolean): void {}
      @mark()
      label!: string;
    }
    expect(api.getMetadata("design:paramtypes", Service.prototype, "run")).toEqual([String, Number, Boolean]);
    expect(api.getMetadata("design:type", Service.prototype, "label")).toBe(String);
  });

  test("keeps own metadata per target and property, and inherits along the prototype chain", () => {
    class Base {}
    class Sub extends Base {}
    api.defineMetadata("role", "base", Base);
    api.defineMetadata("role", "on-method", Base.prototype, "method");
    api.defineMetadata("own", 1, Sub);

    expect(api.getOwnMetadata("role", Sub)).toBeUndefined();
    expect(api.getMetadata("role", Sub)).toBe("base");
    expect(api.hasMetadata("role", Sub)).toBe(true);
    expect(api.hasOwnMetadata("role", Sub)).toBe(false);
    expect(api.getMetadata("role", Sub.prototype, "method")).toBe("on-method");
    expect(api.getMetadata("role", Sub.prototype)).toBeUndefined();
    expect(api.getOwnMetadataKeys(Sub)).toEqual(["own"]);
    expect(api.getMetadataKeys(Sub)).toEqual(["own", "role"]);
  });

  test("an own value shadows the inherited one, including an own undefined", () => {
    class Base {}
    class Sub extends Base {}
    api.defineMetadata("k", "base", Base);
    api.defineMetadata("k", undefined, Sub);
    expect(api.getMetadata("k", Sub)).toBeUndefined();
    expect(api.hasOwnMetadata("k", Sub)).toBe(true);
  });

  test("deletes one key and reports whether there was one", () => {
    class Target {}
    api.defineMetadata("a", 1, Target, "p");
    api.defineMetadata("b", 2, Target, "p");
    expect(api.deleteMetadata("a", Target, "p")).toBe(true);
    expect(api.deleteMetadata("a", Target, "p")).toBe(false);
    expect(api.getOwnMetadataKeys(Target, "p")).toEqual(["b"]);
    expect(api.deleteMetadata("b", Target, "p")).toBe(true);
    expect(api.getOwnMetadataKeys(Target, "p")).toEqual([]);
  });

  test("Reflect.metadata is a decorator, symbols work as keys and properties", () => {
    const key = Symbol("key");
    const property = Symbol("property");
    class Target {}
    api.metadata(key, "v")(Target.prototype, property);
    expect(api.getMetadata(key, Target.prototype, property)).toBe("v");
    expect(api.getOwnMetadataKeys(Target.prototype, property)).toEqual([key]);
  });

  test("rejects a target that is not an object, as reflect-metadata does", () => {
    expect(() => api.defineMetadata("k", 1, "text" as unknown as object)).toThrow(TypeError);
    expect(() => api.getMetadata("k", null as unknown as object)).toThrow(TypeError);
  });
});

// Both load orders in real processes: which polyfill owns the global Reflect decides what
// the process sees, so each order is bundled and run on its own.
describe("with reflect-metadata in the same program", () => {
  const fixture = (name: string) =>
    fileURLToPath(new URL(`../fixtures/metadata-interop/${name}`, import.meta.url));
  const run = async (bundle: BuiltFixture) =>
    JSON.parse((await promisify(execFile)(process.execPath, [bundle.file])).stdout);
  let polyfillFirst: BuiltFixture;
  let reflectMetadataFirst: BuiltFixture;

  beforeAll(async () => {
    [polyfillFirst, reflectMetadataFirst] = await Promise.all([
      bundleWithTsup(fixture("polyfill-first.ts")),
      bundleWithTsup(fixture("reflect-metadata-first.ts")),
    ]);
  });

  afterAll(async () => {
    await Promise.all([polyfillFirst?.remove(), reflectMetadataFirst?.remove()]);
  });

  const expected = {
    reflectMetadataRegistry: true,
    parameterTypes: ["string", "number", "boolean"],
    paramtypes: ["String", "Number", "Boolean"],
    later: "recorded after both loaded",
  };

  test("loaded later, reflect-metadata takes over and still reads what the polyfill recorded", async () => {
    expect(await run(polyfillFirst)).toEqual({ ...expected, replacedSinceCapture: true });
  });

  test("loaded first, reflect-metadata is used and nothing replaces it", async () => {
    expect(await run(reflectMetadataFirst)).toEqual({ ...expected, replacedSinceCapture: false });
  });
});
