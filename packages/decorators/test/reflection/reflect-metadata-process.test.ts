import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { manifestOf, Param, Plugin, Tool } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import { bundleWithTsup } from "../helpers/build-fixture.js";
import { bundledFixtures, type FixtureBundle } from "../helpers/bundled-fixture.js";

// Nothing else loads reflect-metadata into this test process: what is on Reflect below is
// what importing @executa/decorators installed.
describe("the Reflect metadata API installed by importing the package", () => {
  test("is reflect-metadata's, with its registry and Reflect.decorate", () => {
    expect(Symbol.for("@reflect-metadata:registry") in Reflect).toBe(true);
    expect(typeof Reflect.decorate).toBe("function");
    expect(typeof Reflect.metadata).toBe("function");
  });

  test("Reflect.decorate applies the package's decorators, as TypeScript's __decorate helper calls it", () => {
    class Greeter {
      greet(name: string, times: number): string {
        return `hello ${name}`.repeat(times);
      }
    }
    const method = Object.getOwnPropertyDescriptor(Greeter.prototype, "greet");
    const decorated = Reflect.decorate(
      [
        Tool({ description: "Greets someone." }),
        (target: object, key: string | symbol) => Param("name", { description: "Who." })(target, key, 0),
        (target: object, key: string | symbol) =>
          Param("times", { description: "How often." })(target, key, 1),
        Reflect.metadata("design:paramtypes", [String, Number]),
      ],
      Greeter.prototype,
      "greet",
      method,
    );
    Object.defineProperty(Greeter.prototype, "greet", decorated);
    const Decorated = Reflect.decorate(
      [Plugin({ name: "greeter", version: "1.0.0", description: "Greets." })],
      Greeter,
    ) as typeof Greeter;

    const [tool] = manifestOf(Decorated).tools;
    expect(tool?.name).toBe("greet");
    expect(tool?.parameters?.map((parameter) => [parameter.name, parameter.type])).toEqual([
      ["name", "string"],
      ["times", "number"],
    ]);
  });
});

// Each load order and entry in a real process of its own: which copy of reflect-metadata
// loads last decides what is on the global Reflect there.
describe("with the author's own reflect-metadata in the same program", () => {
  const fixture = (name: string) =>
    fileURLToPath(new URL(`../fixtures/reflect-metadata-interop/${name}.ts`, import.meta.url));
  const run = async (bundle: FixtureBundle) =>
    JSON.parse((await promisify(execFile)(process.execPath, [bundle.file])).stdout);
  const orders = ["author-full-first", "author-lite-first", "decorators-first-full", "decorators-first-lite"];
  const built = bundledFixtures(...orders.map((order) => () => bundleWithTsup(fixture(order))));
  const bundles = new Map(orders.map((order, index) => [order, built[index]!]));

  /** Both copies read each other's writes: one store. */
  const oneStore = {
    parameterTypes: ["string", "number", "boolean"],
    paramtypesViaFirst: ["String", "Number", "Boolean"],
    paramtypesViaLast: ["String", "Number", "Boolean"],
    firstReadsLast: "written by the last",
    lastReadsFirst: "written by the first",
  };

  test.each([
    // The full entry is another module than our lite one: the one loaded last owns the
    // global functions, and both copies share reflect-metadata's registry.
    ["author-full-first", true],
    ["decorators-first-full", true],
    // The lite entry is the very module this package imports: it runs once.
    ["author-lite-first", false],
    ["decorators-first-lite", false],
  ])("%s: one metadata store", async (order, lastIsAnotherCopy) => {
    expect(await run(bundles.get(order)!)).toEqual({ ...oneStore, lastIsAnotherCopy });
  });
});
