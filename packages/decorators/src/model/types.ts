/**
 * The resolved, validated form of a decorated class: what the manifest builder and the
 * binder work from. Produced by `resolvePlugin`; decorators never see it.
 */
import type { Manifest, ObjectTypeSchema, Schema, ServerOptions, StandardSchemaV1 } from "@executa/core";
import type { ParamResolveInput } from "../metadata/definitions.js";

/**
 * One argument of a tool (a `@Param`, or a property of an `@Args` DTO) as resolved: its
 * name and whether a caller must send it, which the input object's `properties` and
 * `required` hold, and its schema value (with its description and default).
 */
export interface ResolvedArgument {
  readonly name: string;
  readonly required: boolean;
  readonly schema: Schema;
}

/** What fills one positional parameter of a tool method. */
export type Slot =
  | { kind: "param"; name: string }
  | { kind: "args"; dto: Function }
  /** `@Args(schema)`: the library's output value for the argument object. */
  | { kind: "standard"; schema: StandardSchemaV1 }
  | { kind: "context" }
  | { kind: "credential"; name: string; required: boolean }
  | { kind: "custom"; data: unknown; resolve: (data: unknown, input: ParamResolveInput) => unknown };

/** One tool method. */
export interface ToolModel {
  methodName: string;
  name: string;
  description: string;
  timeout?: number;
  streaming?: boolean;
  /** The OAuth scopes a caller needs (MCP over HTTP with an issuer). */
  scopes?: readonly string[];
  /**
   * The tool's input (the argument object) as the one schema value every projection derives
   * from and the binder's checker is compiled from; its `properties` are the arguments in
   * manifest order.
   */
  input: ObjectTypeSchema;
  /** The DTO class when the method takes `@Args()`. */
  dto?: Function;
  /** The Standard Schema when the method takes `@Args(schema)`: its `validate` runs at every invoke. */
  standard?: StandardSchemaV1;
  /** One entry per method parameter, by position. */
  slots: readonly Slot[];
}

/** The plugin's manifest-level fields, validated: the manifest without its tools. */
export type PluginInfo = Omit<Manifest, "tools">;

/** A decorated plugin class, resolved. */
export interface PluginModel {
  className: string;
  target: Function;
  info: PluginInfo;
  server?: ServerOptions;
  tools: readonly ToolModel[];
  health?: string;
  onStart?: string;
  onStop?: string;
}
