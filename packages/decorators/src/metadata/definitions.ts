import type { InvokeContext } from "@executa/core";
import type { ArgumentOptions } from "../options/argument-options.js";
import type { PluginOptions } from "../options/plugin-options.js";
import type { ToolOptions } from "../options/tool-options.js";
import type { StandardArgs } from "../standard/standard-args.js";

/** `@Plugin` on a class. */
export interface PluginMetadata {
  target: Function;
  options: PluginOptions;
}

/** `@Tool` on a method. */
export interface ToolMetadata {
  target: Function;
  methodName: string;
  /** `undefined` for `@Tool()`. */
  options: ToolOptions | undefined;
}

/** What a custom parameter decorator's resolver receives, per invoke. */
export interface ParamResolveInput {
  /** The invoke's arguments after sanitizing, coercion and defaults. */
  readonly args: Readonly<Record<string, unknown>>;
  readonly context: InvokeContext;
}

/** What fills one parameter of a tool method. */
export type ParamSource =
  /** One named argument (`@Param`). */
  | { kind: "param"; name: unknown; options: ArgumentOptions }
  /** The whole argument object as a DTO (`@Args()`), or as a Standard Schema's output (`@Args(schema)`). */
  | { kind: "args"; standard?: StandardArgs }
  /** The invoke context (`@Ctx`). */
  | { kind: "context" }
  /** One declared credential's value (`@Credential`). */
  | { kind: "credential"; name: unknown }
  /** Anything else, computed per invoke (`createParamDecorator`). */
  | {
      kind: "custom";
      decorator: string;
      data: unknown;
      resolve: (data: unknown, input: ParamResolveInput) => unknown;
    };

/** A parameter decorator on a method parameter. */
export interface ParamMetadata {
  target: Function;
  methodName: string;
  index: number;
  source: ParamSource;
}

/** `@Field` on a DTO property. */
export interface FieldMetadata {
  target: Function;
  propertyName: string;
  options: ArgumentOptions;
}

/** Methods the server calls outside invokes. */
export type HookKind = "health" | "start" | "stop";

/** `@Health`, `@OnStart` or `@OnStop` on a method. */
export interface HookMetadata {
  target: Function;
  methodName: string;
  hook: HookKind;
}

/**
 * A misuse a decorator noticed while being applied (static member, constructor parameter,
 * symbol name). Decorators never throw at class definition time; the builder reports these
 * as `DECORATOR_MISPLACED`.
 */
export interface MisuseMetadata {
  target: Function;
  member: string;
  problem: string;
  fix: string;
}
