import type { ObjectTypeSchema } from "@executa/core";
import type { ResolvedArgument } from "../model/types.js";

/**
 * What DTO classes (`@Args()`) need from class-validator and class-transformer: reading a
 * DTO's properties into arguments, and turning checked values into a validated instance.
 *
 * Kept behind this slot so that the core of the package never references those libraries:
 * `@Args()` and `@Field()` plug the implementation in when they are applied, and a plugin
 * that uses neither leaves both libraries out of its bundle (~25 KB less to load at every
 * start).
 */
export interface DtoSupport {
  /** Whether a class has class-validator or `@Field` metadata, i.e. is a DTO. */
  describesArguments(target: Function): boolean;
  /** The DTO's properties as arguments; `usedBy` names the use in error messages. */
  dtoToArguments(dto: Function, usedBy: string): ResolvedArgument[];
  /** An instance of the DTO built from values checked against `schema` (the DTO's schema value), and validated. */
  toValidatedDto(
    dto: Function,
    schema: ObjectTypeSchema,
    values: Record<string, unknown>,
    tool: string,
  ): object | Promise<object>;
}

let installed: DtoSupport | undefined;

/** Plugs the DTO implementation in; called by the decorators that declare DTOs. */
export function enableDtoSupport(support: DtoSupport): void {
  installed = support;
}

/** Whether a decorator plugged the DTO implementation in. */
export function dtoSupportEnabled(): boolean {
  return installed !== undefined;
}

/** The DTO implementation; only reached for tools with `@Args()`, which enabled it. */
export function dtoSupport(): DtoSupport {
  if (installed === undefined)
    throw new Error("internal error: a DTO is used but DTO support was never enabled");
  return installed;
}
