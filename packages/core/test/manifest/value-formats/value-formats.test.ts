import {
  formatOfClassName,
  formatOfConstructor,
  VALUE_FORMAT_NAMES,
  VALUE_FORMATS,
} from "@executa/core/internal";
import { describe, expect, it } from "vitest";

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
} satisfies Record<(typeof VALUE_FORMAT_NAMES)[number], { valid: string[][]; invalid: string[] }>;

describe.each(VALUE_FORMAT_NAMES)("the %s format", (name) => {
  const rules = VALUE_FORMATS[name];
  const ctor = Reflect.get(globalThis, rules.className) as Function;

  it("stands for a global class, found by its name and by its constructor", () => {
    expect(typeof ctor).toBe("function");
    expect(formatOfClassName(rules.className)).toBe(name);
    expect(formatOfConstructor(ctor)).toBe(name);
  });

  it.each(SAMPLES[name].valid)("decodes %j to an instance whose JSON is %j", (text, sent) => {
    const value = rules.decode(text as string);
    expect(value).toBeInstanceOf(ctor);
    expect(JSON.parse(JSON.stringify({ value }))).toEqual({ value: sent });
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
