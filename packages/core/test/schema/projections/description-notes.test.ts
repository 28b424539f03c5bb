import { describe, expect, it } from "vitest";
import { describedWithNotes } from "../../../src/schema/projections/description-notes.js";

describe("describedWithNotes: what a dialect without the field says in text", () => {
  it("a manifest parameter: its format, a numeric enum's mapping and its elements' facts (bounds have fields)", () => {
    expect(
      describedWithNotes({ type: "string", format: "date-time", description: "When." }, "parameter"),
    ).toBe("When. (ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z)");
    expect(describedWithNotes({ type: "integer", minimum: 1, maximum: 7 }, "parameter")).toBeUndefined();
    expect(
      describedWithNotes({ type: "array", items: { type: "integer", minimum: 1, maximum: 7 } }, "parameter"),
    ).toBe("each: 1 to 7");
  });

  it("a nested property: bounds, lengths and optionality too", () => {
    expect(describedWithNotes({ type: "string", minLength: 2, maxLength: 20 }, "property", false)).toBe(
      "2 to 20 characters; optional",
    );
    expect(describedWithNotes({ type: "number", minimum: 0, description: "Price." }, "property")).toBe(
      "Price. (at least 0)",
    );
  });

  it("a JSON Schema: only a numeric enum's mapping", () => {
    expect(
      describedWithNotes(
        { type: "integer", enum: [1, 2], enumNames: ["One", "Two"], minimum: 1 },
        "json-schema",
      ),
    ).toBe("One = 1, Two = 2");
    expect(describedWithNotes({ type: "string", format: "uri", description: "Link." }, "json-schema")).toBe(
      "Link.",
    );
  });
});
