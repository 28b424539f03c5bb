/**
 * The resolved, validated form of a decorated class: what the manifest builder and the
 * binder work from. Produced by `resolvePlugin`; decorators never see it.
 */
import type {
  ArrayItemType,
  Manifest,
  ObjectTypeSchema,
  ParameterType,
  ServerOptions,
  StandardSchemaV1,
} from "@executa/core";
import type { ValueFormat } from "@executa/core/internal";
import type { ParamResolveInput } from "../metadata/definitions.js";
import type { EnumValue } from "../options/argument-options.js";

/** Element schema of an array argument. */
export interface ItemSchema {
  type: ArrayItemType;
  enum?: readonly EnumValue[];
  /** A numeric TypeScript enum's member names, one per `enum` value: what the model is shown and may send. */
  enumNames?: readonly string[];
  /** Elements of a nested array. */
  items?: ItemSchema;
  /** Known shape of object elements (nested DTOs, interfaces): checked, and the manifest's `properties`. */
  fields?: readonly ArgumentSchema[];
  /** The DTO class each object element becomes an instance of (its fields are checked at every depth). */
  dto?: Function;
  /** Inclusive bounds of number / integer elements (in the manifest as description text). */
  minimum?: number;
  maximum?: number;
  /** A string format the binder turns into an object (`date-time` → `Date`, `uri` → `URL`). */
  format?: ValueFormat;
}

/**
 * One argument of a tool (a `@Param`, or a property of an `@Args` DTO) as the binder checks
 * it. Every projection reads the tool's schema value instead (`ToolModel.input`, made from
 * these by `argumentsSchema`).
 */
export interface ArgumentSchema {
  name: string;
  type: ParameterType;
  description?: string;
  required: boolean;
  /** Whether `default` is set (a default may itself be `null`). */
  hasDefault: boolean;
  default?: unknown;
  enum?: readonly EnumValue[];
  /** A numeric TypeScript enum's member names, one per `enum` value: what the model is shown and may send. */
  enumNames?: readonly string[];
  /** Set exactly when `type` is `array`. */
  items?: ItemSchema;
  /** Known shape of an `object` argument (a nested DTO, an interface): checked, and the manifest's `properties`. */
  fields?: readonly ArgumentSchema[];
  /** The DTO class an `object` value becomes an instance of (its fields are checked at every depth). */
  dto?: Function;
  /** Inclusive bounds of a number / integer argument. */
  minimum?: number;
  maximum?: number;
  /** Inclusive length bounds of a string argument, in characters (code points). */
  minLength?: number;
  maxLength?: number;
  /** A string format the binder turns into an object (`date-time` → `Date`, `uri` → `URL`). */
  format?: ValueFormat;
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
  /** The tool's arguments in manifest order, as the binder checks them. */
  arguments: readonly ArgumentSchema[];
  /** The tool's input (the argument object) as the one schema value every projection derives from. */
  input: ObjectTypeSchema;
  /** The DTO class when the method takes `@Args()`. */
  dto?: Function;
  /** The Standard Schema when the method takes `@Args(schema)`: its `validate` runs at every invoke. */
  standard?: StandardSchemaV1;
  /** One entry per method parameter, by position. */
  slots: readonly Slot[];
  /** The schema of an object result, from the method's return type (projected to MCP `outputSchema`). */
  output?: ObjectTypeSchema;
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
