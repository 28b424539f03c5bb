import { DOCUMENTATION_TAGS, SCHEMA_DOC_TAGS, sourceInfoOf } from "@executa/core/internal";
import { DefinitionError } from "../errors/definition-error.js";
import { lineage } from "../metadata/storage.js";
import { closestName } from "../naming/closest-name.js";
import { classNameOf } from "./class-name.js";

/**
 * Throws `UNKNOWN_DOC_TAG` for the first doc-comment tag the source reader found on a
 * member of `target` (or of a base class) that is neither a schema tag nor a documentation
 * tag: `@min 0` would otherwise leave the bound out of the schema without a word. A tool's
 * reading holds its parameters' types, DTO classes and nested shapes included.
 */
export function checkDocTags(target: Function): void {
  for (const ctor of lineage(target)) {
    const unknown = sourceInfoOf(ctor)?.unknownTags?.[0];
    if (!unknown) continue;
    throw new DefinitionError(
      "UNKNOWN_DOC_TAG",
      classNameOf(ctor),
      unknown.member,
      `the doc comment's tag @${unknown.tag} is not one the schema knows, so it would be ignored`,
      unknownTagFix(unknown.tag),
    );
  }
}

const SCHEMA_TAGS: readonly string[] = SCHEMA_DOC_TAGS;

/** A did-you-mean for a misspelled or shortened tag (`@min` → `@minimum`), with the tags there are. */
function unknownTagFix(tag: string): string {
  const shortened = SCHEMA_TAGS.find((known) => known.startsWith(tag));
  const suggestion = shortened ?? closestName(tag, [...SCHEMA_TAGS, ...DOCUMENTATION_TAGS]);
  const tags = `the schema's tags are ${SCHEMA_TAGS.map((known) => `@${known}`).join(", ")}; documentation tags (@remarks, @example, @deprecated, …) are accepted and left out`;
  return suggestion !== undefined
    ? `did you mean @${suggestion}? (${tags})`
    : `remove it or write the rule another way: ${tags}`;
}
