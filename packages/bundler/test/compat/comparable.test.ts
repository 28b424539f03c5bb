import { describe, expect, it } from "vitest";
import { comparable } from "../../src/compat/read-surface.js";

const output = { type: "object", properties: { text: { type: "string" } } };
const surface = (withOutput: boolean) => ({
  surface: {
    name: "p",
    version: "1.0.0",
    tools: [{ name: "greet", description: "Greets.", ...(withOutput ? { output_schema: output } : {}) }],
  },
  namesOnly: false,
});

describe("the surfaces compared", () => {
  it("keep the output schemas when both sides carry them", () => {
    const [before, after] = comparable(surface(true), surface(true));
    expect(before.tools).toEqual([{ name: "greet", description: "Greets.", output_schema: output }]);
    expect(after.tools).toEqual(before.tools);
  });

  it("leave them out when one side (a plain Executa manifest) carries none: absence is not removal", () => {
    for (const [a, b] of [
      [true, false],
      [false, true],
    ] as const) {
      const [before, after] = comparable(surface(a), surface(b));
      expect(before.tools).toEqual([{ name: "greet", description: "Greets." }]);
      expect(after.tools).toEqual([{ name: "greet", description: "Greets." }]);
    }
  });
});
