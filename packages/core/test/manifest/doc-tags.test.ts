import { describe, expect, it } from "vitest";
import { DOCUMENTATION_TAGS, isUnknownDocTag, SCHEMA_DOC_TAGS } from "../../src/manifest/doc-tags.js";

describe("doc-comment tags", () => {
  it("knows the schema tags and the documentation tags", () => {
    for (const tag of [...SCHEMA_DOC_TAGS, ...DOCUMENTATION_TAGS]) expect(isUnknownDocTag(tag)).toBe(false);
  });

  it("takes a misspelled schema tag for an unknown one", () => {
    expect(isUnknownDocTag("min")).toBe(true);
    expect(isUnknownDocTag("maximun")).toBe(true);
  });
});
