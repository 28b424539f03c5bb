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

  it("joins the notes to the aside a description ends with, so that one group says them all", () => {
    const text = { type: "string", pattern: "\\S", maxLength: 100 } as const;
    expect(describedWithNotes({ ...text, description: "Text (up to 100 characters)." }, "parameter")).toBe(
      "Text (up to 100 characters; matching \\S).",
    );
    expect(describedWithNotes({ ...text, description: "Text (up to 100 characters)" }, "parameter")).toBe(
      "Text (up to 100 characters; matching \\S)",
    );
  });

  it("keeps the notes apart where joining them would read as part of something else", () => {
    const text = { type: "string", pattern: "\\S" } as const;
    const apart = (description: string) => describedWithNotes({ ...text, description }, "parameter");
    expect(apart('A city ("Paris, Texas").')).toBe('A city ("Paris, Texas"). (matching \\S)');
    expect(apart("metric (°C, km/h) or imperial (°F, mph).")).toBe(
      "metric (°C, km/h) or imperial (°F, mph). (matching \\S)",
    );
    expect(apart("An id (letters or digits); an existing id is replaced.")).toBe(
      "An id (letters or digits); an existing id is replaced. (matching \\S)",
    );
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

  it("a manifest parameter: pattern, exclusive bounds, item counts and rules, its elements' too", () => {
    expect(
      describedWithNotes(
        { type: "string", pattern: "^[a-z]+$", format: "email", rules: ["a URL"], description: "Who." },
        "parameter",
      ),
    ).toBe("Who. (format email; matching ^[a-z]+$; a URL)");
    expect(describedWithNotes({ type: "number", exclusiveMinimum: 0, minimum: 1 }, "parameter")).toBe(
      "above 0",
    );
    expect(
      describedWithNotes(
        {
          type: "array",
          minItems: 1,
          maxItems: 5,
          uniqueItems: true,
          rules: ["not empty"],
          items: { type: "number", exclusiveMaximum: 0, rules: ["checked by @IsAlpha()"] },
        },
        "parameter",
      ),
    ).toBe("1 to 5 items; unique elements; not empty; each: below 0, checked by @IsAlpha()");
    expect(
      describedWithNotes(
        { type: "array", items: { type: "array", items: { type: "string" }, uniqueItems: true } },
        "parameter",
      ),
    ).toBe("each: unique elements");
  });

  it("uniqueItems: in words where the dialect has no field (the manifest, strict response_format)", () => {
    const schema = { type: "array", items: { type: "string" }, uniqueItems: true } as const;
    expect(describedWithNotes(schema, "parameter")).toBe("unique elements");
    expect(describedWithNotes(schema, "property")).toBe("unique elements");
    expect(describedWithNotes(schema, "strict-response-format")).toBe("unique elements");
    expect(describedWithNotes(schema, "json-schema")).toBeUndefined();
    expect(describedWithNotes(schema, "response-format")).toBeUndefined();
    expect(describedWithNotes({ ...schema, uniqueItems: false }, "parameter")).toBeUndefined();
  });

  it("a nested property: its default too", () => {
    expect(describedWithNotes({ type: "integer", default: 3, minimum: 1 }, "property", false)).toBe(
      "at least 1; default 3; optional",
    );
  });

  it("a JSON Schema and response_format say the rules; strict response_format also lengths and formats it refuses", () => {
    const schema = { type: "string", format: "uri", maxLength: 9, rules: ["not empty"] } as const;
    expect(describedWithNotes(schema, "json-schema")).toBe("not empty");
    expect(describedWithNotes(schema, "response-format")).toBe("not empty");
    expect(describedWithNotes(schema, "strict-response-format")).toBe(
      "absolute URL, e.g. https://example.com/a; at most 9 characters; not empty",
    );
    expect(
      describedWithNotes({ type: "string", format: "date-time" }, "strict-response-format"),
    ).toBeUndefined();
  });
});
