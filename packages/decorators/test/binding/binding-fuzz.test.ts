import { buildPlugin, InvalidParamsError } from "@executa/decorators";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { HostileArgsPlugin } from "../fixtures/hostile-args-plugin.js";
import { callTool } from "../helpers/invoke.js";

// Property-based binding: whatever arguments arrive (as parsed from the wire), binding a
// decorated tool either succeeds or throws InvalidParamsError (-32602) — never a
// RangeError, a TypeError or anything else — never changes a prototype, and valid
// arguments bind to exactly the values sent. Fixed seeds keep runs reproducible.
const plugin = buildPlugin(HostileArgsPlugin);
const SEED = 20_261_203;
const UNSAFE = ["__proto__", "constructor", "prototype"];
const KNOWN = ["text", "count", "ids", "filter", "flag", "title", "stops", "name", "minutes"];

const nestText = (open: "[" | "{", depth: number) =>
  open === "[" ? `${"[".repeat(depth)}${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const hugeArrayText = (length: number, element: string) => `[${Array(length).fill(element).join(",")}]`;

const key = fc.oneof(
  fc.constantFrom(...KNOWN, ...UNSAFE, "toString", "hasOwnProperty", "valueOf"),
  fc.string({ maxLength: 8 }),
);
const jsonText = fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value));
const pollution = fc
  .tuple(fc.constantFrom(...UNSAFE), fc.constantFrom(...UNSAFE, "polluted", "isAdmin"))
  .map(([outer, inner]) => `{${JSON.stringify(outer)}:{${JSON.stringify(inner)}:{"polluted":true}}}`);

/** JSON text of one argument value: plain, wrong-typed, polluting, deep, huge, or a JSON string of those. */
const valueText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: jsonText, weight: 6 },
  {
    arbitrary: fc.constantFrom("null", "true", "1.5", "-3", '"5"', '"true"', '"[1,2]"', '"{\\"a\\":1}"'),
    weight: 3,
  },
  { arbitrary: pollution, weight: 2 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom("[" as const, "{" as const), fc.integer({ min: 1, max: 3_000 }))
      .map(([open, depth]) => nestText(open, depth)),
    weight: 2,
  },
  {
    arbitrary: fc
      .tuple(fc.integer({ min: 0, max: 3_000 }), fc.constantFrom('"x"', "1", "null", "{}", '{"name":5}'))
      .map(([length, element]) => hugeArrayText(length, element)),
    weight: 2,
  },
  {
    arbitrary: fc.integer({ min: 60, max: 3_000 }).map((depth) => JSON.stringify(nestText("[", depth))),
    weight: 1,
  },
  { arbitrary: pollution.map((text) => JSON.stringify(text)), weight: 1 },
);

const argumentsText = fc
  .array(fc.tuple(key, valueText), { maxLength: 8 })
  .map((pairs) => `{${pairs.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(",")}}`);

/** Throws unless a binding outcome is a value or an InvalidParamsError. */
async function bindOutcome(
  tool: string,
  args: unknown,
): Promise<{ value?: unknown; error?: InvalidParamsError }> {
  try {
    return { value: await callTool(plugin, tool, args) };
  } catch (error) {
    if (!(error instanceof InvalidParamsError)) throw error;
    expect(error.code).toBe(-32602);
    // The answer stays small whatever the input.
    expect(JSON.stringify(error.toJSON()).length).toBeLessThan(200_000);
    return { error };
  }
}

/** Whether any object in `value` has an own unsafe key (walks at most 100 levels). */
function hasUnsafeKey(value: unknown, depth = 0): boolean {
  if (typeof value !== "object" || value === null || depth > 100) return false;
  for (const name of Object.keys(value)) {
    if (UNSAFE.includes(name)) return true;
    if (hasUnsafeKey((value as Record<string, unknown>)[name], depth + 1)) return true;
  }
  return false;
}

const prototypeNames = () => Object.getOwnPropertyNames(Object.prototype).sort();

describe("argument binding under random input", () => {
  test("binds or answers -32602, never anything else, and never pollutes prototypes", async () => {
    const before = prototypeNames();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("mixed", "route"), argumentsText, async (tool, text) => {
        const outcome = await bindOutcome(tool, JSON.parse(text));
        if (outcome.value !== undefined) expect(hasUnsafeKey(outcome.value)).toBe(false);
        expect(prototypeNames()).toEqual(before);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.getPrototypeOf({})).toBe(Object.prototype);
      }),
      {
        seed: SEED,
        numRuns: 300,
        interruptAfterTimeLimit: 8_000,
        examples: [
          ["mixed", `{"text":"a","filter":${nestText("[", 200_000)}}`],
          ["route", `{"title":"t","stops":${nestText("{", 100_000)}}`],
          ["mixed", `{"text":"a","ids":${hugeArrayText(125_000, '"x"')}}`],
          ["route", `{"title":"t","stops":${hugeArrayText(125_000, '{"name":5}')}}`],
          ["mixed", `{"text":"a","filter":${JSON.stringify(nestText("{", 100_000))}}`],
          [
            "mixed",
            `{"text":"a","__proto__":{"polluted":true},"filter":{"constructor":{"prototype":{"polluted":1}}}}`,
          ],
        ],
      },
    );
  }, 30_000);

  test("valid @Param arguments bind to the values sent", async () => {
    const safeKey = fc.string({ maxLength: 6 }).filter((name) => !UNSAFE.includes(name));
    const valid = fc.record(
      {
        text: fc.string(),
        count: fc.integer(),
        ids: fc.array(fc.integer(), { maxLength: 20 }),
        filter: fc.dictionary(safeKey, fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null))),
        flag: fc.boolean(),
      },
      { requiredKeys: ["text"] },
    );
    await fc.assert(
      fc.asyncProperty(valid, async (args) => {
        const sent = JSON.parse(JSON.stringify(args)) as typeof args;
        const { value, error } = await bindOutcome("mixed", sent);
        expect(error).toBeUndefined();
        expect(value).toEqual({ ...args, count: args.count ?? 1 });
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  test("valid DTO arguments build a validated instance", async () => {
    const stop = fc.record({ name: fc.string(), minutes: fc.nat() }, { requiredKeys: ["name"] });
    const valid = fc.record(
      {
        title: fc.string(),
        stops: fc.array(stop, { maxLength: 5 }),
        ids: fc.array(fc.integer(), { maxLength: 5 }),
      },
      { requiredKeys: ["title", "stops"] },
    );
    await fc.assert(
      fc.asyncProperty(valid, async (args) => {
        const { value, error } = await bindOutcome("route", JSON.parse(JSON.stringify(args)));
        expect(error).toBeUndefined();
        expect(value).toEqual({ title: args.title, stops: args.stops.length, isStop: args.stops.length > 0 });
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});
