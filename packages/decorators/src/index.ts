/**
 * `@executa/decorators` — write Executa plugins as decorated classes.
 *
 * ```ts
 * import { Plugin, Tool, Param, Ctx, ToolError, serve, type InvokeContext } from "@executa/decorators";
 *
 * @Plugin({ name: "weather", version: "1.0.0", description: "Weather from Open-Meteo." })
 * export class Weather {
 *   @Tool({ description: "Current conditions for a city.", timeout: 20 })
 *   async getWeather(@Param("city", { description: "City name" }) city: string, @Ctx() ctx: InvokeContext) { … }
 * }
 * serve(Weather);
 * ```
 *
 * Importing this package installs the `Reflect` metadata API decorator metadata needs (unless
 * `reflect-metadata` is loaded already), so authors never import a polyfill themselves
 * (import this package before modules that define decorated classes).
 * @packageDocumentation
 */
import "./reflection/install-metadata.js";

// What tools reach through ctx.host, and the display helpers, so authors need one import.
export {
  AgentError,
  CapabilityError,
  display,
  EmbeddingsError,
  type HealthContext,
  type HealthResult,
  type HealthStatus,
  type HostClients,
  ImageError,
  InvalidParamsError,
  type InvokeContext,
  type Manifest,
  markdown,
  type ParameterSchema,
  type ParamIssue,
  type PluginDefinition,
  type PluginServer,
  SamplingError,
  type ServerOptions,
  StorageError,
  type StorageScope,
  ToolError,
  UploadError,
  withDisplay,
} from "@executa/core";
export { type BuildPluginOptions, buildPlugin, manifestOf, type PluginClass } from "./build-plugin.js";
export { Args } from "./decorators/args.js";
export { Credential } from "./decorators/credential.js";
export { Ctx } from "./decorators/ctx.js";
export { Field } from "./decorators/field.js";
export { Health, OnStart, OnStop } from "./decorators/hooks.js";
export { Host } from "./decorators/host.js";
export { Param } from "./decorators/param.js";
export { createParamDecorator } from "./decorators/param-decorator.js";
export { Plugin } from "./decorators/plugin.js";
export { Tool } from "./decorators/tool.js";
export { DecoratorMisuseError } from "./errors/decorator-misuse-error.js";
export { PluginDefinitionError } from "./errors/definition-error.js";
export { DuplicateToolNameError } from "./errors/duplicate-tool-name-error.js";
export { InvalidOptionError } from "./errors/invalid-option-error.js";
export { METADATA_FIX, MetadataMissingError } from "./errors/metadata-missing-error.js";
export { MissingDescriptionError } from "./errors/missing-description-error.js";
export { MissingParamNameError } from "./errors/missing-param-name-error.js";
export { MissingPluginDecoratorError } from "./errors/missing-plugin-decorator-error.js";
export { MixedParamStyleError } from "./errors/mixed-param-style-error.js";
export { PluginInstanceError } from "./errors/plugin-instance-error.js";
export { UndeclaredCredentialError } from "./errors/undeclared-credential-error.js";
export { UndecoratedParameterError } from "./errors/undecorated-parameter-error.js";
export { UninferableTypeError } from "./errors/uninferable-type-error.js";
export type { ParamResolveInput } from "./metadata/definitions.js";
export type {
  ArgumentOptions,
  EnumSource,
  EnumValue,
  ItemsOption,
  ItemsSpec,
} from "./options/argument-options.js";
export type { PluginOptions } from "./options/plugin-options.js";
export type { ToolOptions } from "./options/tool-options.js";
export { type ServeClassOptions, serve } from "./serve.js";
