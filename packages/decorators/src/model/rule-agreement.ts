import type { Schema } from "@executa/core";
import { withoutNull } from "@executa/core/internal";
import { DefinitionError } from "../errors/definition-error.js";
import type { ArgumentInput } from "./argument-input.js";

const BOUNDS = ["minimum", "maximum"] as const;

/**
 * Throws `RULE_CONFLICT` when one argument's bound is written as a rule twice with
 * different values: a class-validator rule (`@Min(5)`) and a doc-comment tag
 * (`@minimum 1`). Which one would apply is an accident of merge order; the author meant
 * one. The same value twice is no conflict. An explicit option (`@Param("n", { minimum })`,
 * `@Field({ minimum })`) is not a rule but the override, and wins as every option does.
 */
export function checkRuleAgreement(input: ArgumentInput): void {
  for (const bound of BOUNDS) {
    const validator = input.inferred?.[bound];
    const tag = input.source && boundOf(withoutNull(input.source.schema), bound);
    if (input.options[bound] !== undefined || validator === undefined || tag === undefined) continue;
    if (validator === tag) continue;
    throw new DefinitionError(
      "RULE_CONFLICT",
      input.className,
      input.member,
      `the ${bound} is given twice with different values: ${bound === "minimum" ? "@Min" : "@Max"}(${validator}) and the doc tag @${bound} ${tag}`,
      `keep one of them (or give both the same value); an explicit ${bound} option overrides both`,
    );
  }
}

/** The recorded doc-tag bound of a number (or a number or `null`). */
function boundOf(schema: Schema, bound: (typeof BOUNDS)[number]): number | undefined {
  return bound in schema ? (schema as { readonly [key in typeof bound]?: number })[bound] : undefined;
}
