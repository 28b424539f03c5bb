/**
 * Manifest types: what a plugin answers to `describe`. Field names are the wire's
 * (snake_case), exactly as the protocol spec names them.
 */

import type { ParameterType } from "../manifest/parameter-types/index.js";
import type { KnownHostCapability } from "./capability-families.js";

/** The parameter types the protocol supports (one module each in `manifest/parameter-types`). */
export type { ParameterType };

/** The element types an `array` parameter may declare. */
export type ArrayItemType = Exclude<ParameterType, "array"> | "array";

/** JSON Schema style element description of an `array` parameter. */
export interface ParameterItems {
  type: ArrayItemType;
  /** Allowed values of each element. */
  enum?: readonly (string | number | boolean)[];
  /** Element schema of nested arrays. */
  items?: ParameterItems;
  /** Sub-properties of `object` elements (informational for the LLM). */
  properties?: Record<string, ParameterItems & { description?: string }>;
  required?: readonly string[];
}

/** One parameter of a tool. `required` defaults to `true` on the wire. */
export interface ParameterSchema {
  name: string;
  type: ParameterType;
  description?: string;
  /** Defaults to `true` when absent. */
  required?: boolean;
  default?: unknown;
  enum?: readonly (string | number | boolean)[];
  /** Element type of an `array`, JSON Schema style. */
  items?: ParameterItems;
  /** Element type of an `array`, protocol shorthand. */
  items_type?: ArrayItemType;
  /** Inclusive bounds for `integer` / `number` parameters. */
  minimum?: number;
  maximum?: number;
  /** Length bounds for `string` parameters. */
  minLength?: number;
  maxLength?: number;
  /** Sub-properties of an `object` parameter (informational for the LLM). */
  properties?: Record<string, ParameterItems & { description?: string }>;
}

/** One tool, as listed in `manifest.tools`. */
export interface ToolManifest {
  name: string;
  description: string;
  parameters?: ParameterSchema[];
  /** Per-tool execute timeout in seconds (host default 60). */
  timeout?: number;
  /** Reserved for future use. */
  streaming?: boolean;
}

/** A declared secret the host injects into `context.credentials`. */
export interface CredentialSpec {
  name: string;
  display_name?: string;
  description?: string;
  required?: boolean;
  sensitive?: boolean;
  default?: string;
}

/** `runtime.binary` of a binary distribution (protocol-v2-notes, "Binary distribution layout"). */
export interface RuntimeBinary {
  /** Entrypoint per platform key (`default`, `linux-x86_64`, `windows-x86_64`, …). */
  entrypoint: Record<string, string>;
  lib_dirs?: string[];
  data_dirs?: string[];
  /** File mode per path, e.g. `{ "bin/NAME": "0o755" }`. */
  permissions?: Record<string, string>;
}

/** Free-form runtime hints. */
export interface RuntimeHints {
  type?: string;
  min_version?: string;
  binary?: RuntimeBinary;
  [key: string]: unknown;
}

/**
 * Reverse capabilities a plugin may ask the host for (`manifest.host_capabilities`),
 * as the capability-family table lists them.
 */
export type HostCapability = KnownHostCapability;

/** The manifest a plugin answers to `describe`. */
export interface Manifest {
  name: string;
  display_name?: string;
  version: string;
  description: string;
  author?: string;
  homepage?: string;
  icon?: string;
  category?: string;
  license?: string;
  tools: ToolManifest[];
  credentials?: CredentialSpec[];
  runtime?: RuntimeHints;
  /** Known values are typed; unknown strings pass through for newer hosts. */
  host_capabilities?: (HostCapability | (string & {}))[];
}
