import { DISPLAY_LIMITS, display, markdown, withDisplay } from "@executa/core";
import { describe, expect, it } from "vitest";

describe("display blocks", () => {
  it("attaches _display beside the data without touching it", () => {
    const data = { count: 6 };
    const result = withDisplay(data, "**sixth time**", markdown("_tell me_"));
    expect(result).toEqual({
      count: 6,
      _display: {
        blocks: [
          { type: "markdown", text: "**sixth time**" },
          { type: "markdown", text: "_tell me_" },
        ],
      },
    });
    expect(data).toEqual({ count: 6 });
  });

  it("enforces the host's limits instead of letting it drop the whole _display", () => {
    expect(() => display()).toThrow(RangeError);
    expect(() => display(...Array.from({ length: DISPLAY_LIMITS.maxBlocks + 1 }, () => "x"))).toThrow(
      /1 to 8/,
    );
    expect(() => display("x".repeat(4001))).toThrow(/4001 characters/);
    expect(() => display("😀".repeat(4000))).not.toThrow(); // code points, not UTF-16 units
    expect(() => display(...Array.from({ length: 5 }, () => "x".repeat(3300)))).toThrow(
      /16500 characters in all/,
    );
    expect(() => display("")).toThrow(/non-empty/);
    expect(() => display({ type: "html", text: "<b>" } as never)).toThrow(/only "markdown"/);
  });

  it("refuses data that is not a plain object or already has _display", () => {
    expect(() => withDisplay([] as never, "x")).toThrow(TypeError);
    expect(() => withDisplay({ _display: 1 }, "x")).toThrow(/already has/);
  });
});
