import type { ArrayItemType, ParameterType } from "@executa/core";

/** A primitive an `enum` may list. */
export type EnumValue = string | number | boolean;

/** Allowed values: an array, or a TypeScript `enum` object (its values are taken, reverse mappings dropped). */
export type EnumSource = readonly EnumValue[] | Readonly<Record<string, string | number>>;

/** Element type of an array argument: a type name, or a description with its own `enum` / `items`. */
export type ItemsOption = ArrayItemType | ItemsSpec;

/** Element description of an array argument, JSON Schema style. */
export interface ItemsSpec {
  type: ArrayItemType;
  enum?: EnumSource;
  /** Elements of a nested array. */
  items?: ItemsOption;
}

/**
 * What `@Param(name, options)` and `@Field(options)` accept. Everything is optional: the
 * type comes from class-validator (DTO properties), the source (with the executa source
 * reader) or reflection unless given here; what is given here always wins.
 */
export interface ArgumentOptions {
  /** Shown to the LLM. */
  description?: string;
  /** Overrides the reflected type, e.g. `"integer"` for a `number`, or `"object"` for an interface. */
  type?: ParameterType;
  /** Element type of an array (default: string, as the protocol says). */
  items?: ItemsOption;
  /** Protocol shorthand for `items: { type }`. */
  items_type?: ArrayItemType;
  /** Allowed values: an array or a TypeScript enum object. */
  enum?: EnumSource;
  /** Used when the argument is absent or null; makes it optional. */
  default?: unknown;
  /**
   * Default: true unless a `default` is given or `optional: true`, or (with the executa
   * source reader) the source makes it optional: `city?: string`, `days = 3`,
   * `T | undefined`. Without the source reader these are invisible to reflection: say
   * `optional: true` or `default` here as well.
   */
  required?: boolean;
  /** Same as `required: false`. */
  optional?: boolean;
  /** Inclusive lower bound of a number or integer. */
  minimum?: number;
  /** Inclusive upper bound of a number or integer. */
  maximum?: number;
}
