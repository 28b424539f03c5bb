import { registerCodec } from "@executa/core";
import {
  type Codec,
  codecNamed,
  codecOfTypeName,
  formatOfClassName,
  formatOfConstructor,
  registeredCodecs,
} from "@executa/core/internal";
import { describe, expect, it } from "vitest";

const BUILT_IN = ["date-time", "uri"] as const;

/** For each format: strings it decodes (with the string its object is sent back as) and strings it refuses. */
const SAMPLES = {
  "date-time": {
    valid: [
      ["2026-01-31T09:00:00Z", "2026-01-31T09:00:00.000Z"],
      [" 2026-01-31 ", "2026-01-31T00:00:00.000Z"],
    ],
    invalid: ["yesterday", "2026-02-31", "31/01/2026", ""],
  },
  uri: {
    valid: [
      ["https://example.com/a?b=1", "https://example.com/a?b=1"],
      [" mailto:someone@example.com ", "mailto:someone@example.com"],
      ["https://EXAMPLE.com", "https://example.com/"],
    ],
    invalid: ["/relative/path", "example.com", "not a url", ""],
  },
} satisfies Record<(typeof BUILT_IN)[number], { valid: string[][]; invalid: string[] }>;

describe.each(BUILT_IN)("the %s codec", (name) => {
  const rules = codecNamed(name) as Codec;
  const ctor = Reflect.get(globalThis, rules.typeName) as Function;

  it("stands for a global class, found by its name and by its constructor", () => {
    expect(rules.reflectedAs).toBe(ctor);
    expect(formatOfClassName(rules.typeName)).toBe(name);
    expect(formatOfConstructor(ctor)).toBe(name);
    expect(rules.jsonSchema).toEqual({ type: "string", format: name });
  });

  it.each(SAMPLES[name].valid)("decodes %j to an instance whose JSON is %j", (text, sent) => {
    const value = rules.decode(text as string);
    expect(value).toBeInstanceOf(ctor);
    expect(JSON.parse(JSON.stringify({ value }))).toEqual({ value: sent });
    expect(rules.encode(value)).toBe(sent);
    expect(rules.is(value)).toBe(true);
  });

  it.each(SAMPLES[name].invalid)("refuses %j", (text) => {
    expect(rules.decode(text)).toBeUndefined();
  });
});

describe("format lookups", () => {
  it("know no format for other classes and names", () => {
    expect(formatOfConstructor(Map)).toBeUndefined();
    expect(formatOfConstructor(class URL {})).toBeUndefined();
    expect(formatOfClassName("Map")).toBeUndefined();
  });
});

describe("registerCodec", () => {
  const money = {
    name: "money",
    typeName: "Money",
    description: "amount and currency, e.g. 12.50 EUR",
    decode: (text: string) => (/^\d+(\.\d+)? [A-Z]{3}$/.test(text) ? { text } : undefined),
    encode: (value: { text: string }) => value.text,
    is: (value: unknown): value is { text: string } =>
      typeof value === "object" && value !== null && "text" in value,
  };

  it("adds a codec found by name and type, a plain string format by default, until removed", () => {
    const remove = registerCodec(money);
    expect(codecNamed("money")).toMatchObject({
      jsonSchema: { type: "string", format: "money" },
      expected: "string (amount and currency, e.g. 12.50 EUR)",
    });
    expect(codecOfTypeName("Money")?.name).toBe("money");
    expect(registeredCodecs().map((codec) => codec.name)).toEqual(["money"]);
    remove();
    expect(codecNamed("money")).toBeUndefined();
    expect(registeredCodecs()).toEqual([]);
  });

  it("refuses a name or a type already taken, and an unusable name", () => {
    expect(() => registerCodec({ ...money, name: "date-time" })).toThrow(
      'registerCodec: "date-time" (Money) clashes with the codec "date-time" (Date)',
    );
    expect(() => registerCodec({ ...money, typeName: "URL" })).toThrow('clashes with the codec "uri" (URL)');
    expect(() => registerCodec({ ...money, name: "no spaces" })).toThrow('"no spaces" is not a codec name');
  });
});
