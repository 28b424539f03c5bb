/**
 * The keys each decorator's options object accepts, listed once. Each list is a record
 * over the option type's keys, so a key added to the type without being listed here (or
 * listed without being in the type) does not compile.
 */
import type { ArgumentOptions, ItemsSpec } from "./argument-options.js";
import type { PluginOptions } from "./plugin-options.js";
import type { ToolOptions } from "./tool-options.js";

type KeyList<T> = Record<keyof Required<T>, true>;

const PLUGIN: KeyList<PluginOptions> = {
  name: true,
  version: true,
  description: true,
  display_name: true,
  author: true,
  homepage: true,
  icon: true,
  category: true,
  license: true,
  credentials: true,
  runtime: true,
  host_capabilities: true,
  server: true,
};

const TOOL: KeyList<ToolOptions> = {
  name: true,
  description: true,
  timeout: true,
  streaming: true,
  scopes: true,
};

const ARGUMENT: KeyList<ArgumentOptions> = {
  description: true,
  type: true,
  items: true,
  items_type: true,
  enum: true,
  default: true,
  required: true,
  optional: true,
  minimum: true,
  maximum: true,
};

const ITEMS: KeyList<ItemsSpec> = { type: true, enum: true, items: true };

/** Keys of `@Plugin({ … })`. */
export const PLUGIN_OPTION_KEYS: readonly string[] = Object.keys(PLUGIN);
/** Keys of `@Tool({ … })`. */
export const TOOL_OPTION_KEYS: readonly string[] = Object.keys(TOOL);
/** Keys of `@Param(name, { … })` and `@Field({ … })`. */
export const ARGUMENT_OPTION_KEYS: readonly string[] = Object.keys(ARGUMENT);
/** Keys of an `items: { … }` element description. */
export const ITEMS_OPTION_KEYS: readonly string[] = Object.keys(ITEMS);
