/**
 * The doc-comment tags of a parameter, a DTO field or an object property that the source
 * reader turns into schema facts: `@minimum 1`, `@maximum 7`, `@integer`.
 */
export const SCHEMA_DOC_TAGS = ["minimum", "maximum", "integer"] as const;

/** A tag of {@link SCHEMA_DOC_TAGS}. */
export type SchemaDocTag = (typeof SCHEMA_DOC_TAGS)[number];

/**
 * Tags of TSDoc and JSDoc that document code without saying anything about its values:
 * accepted on a member and left out of the schema.
 */
export const DOCUMENTATION_TAGS: readonly string[] = [
  "alpha",
  "author",
  "beta",
  "category",
  "default",
  "defaultValue",
  "deprecated",
  "description",
  "example",
  "experimental",
  "hidden",
  "ignore",
  "inheritDoc",
  "internal",
  "label",
  "link",
  "override",
  "param",
  "privateRemarks",
  "public",
  "readonly",
  "remarks",
  "return",
  "returns",
  "see",
  "since",
  "summary",
  "throws",
  "todo",
  "typeParam",
  "virtual",
];

/**
 * Whether a member's doc-comment tag would be dropped without a word: it is neither a
 * schema tag nor a documentation tag. Only lower-case tags are judged, as JSDoc's are; a
 * capitalized word after `@` is a decorator named in prose (`use @Args()`).
 */
export function isUnknownDocTag(tag: string): boolean {
  return (
    /^[a-z]/.test(tag) &&
    !(SCHEMA_DOC_TAGS as readonly string[]).includes(tag) &&
    !DOCUMENTATION_TAGS.includes(tag)
  );
}
