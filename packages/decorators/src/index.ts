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
 * Importing this package installs the `Reflect` metadata API decorator metadata needs
 * (`reflect-metadata/lite`, sharing its store with an author's own `reflect-metadata`), so
 * authors never import a polyfill themselves (import this package before modules that
 * define decorated classes).
 * @packageDocumentation
 */
import "./reflection/install-metadata.js";

// What a tool is handed and may throw, and the server around it, so authors need one import.
// The host-capability families' error codes (a test or a tool compares a host error's code
// with them) and MCP progress, which decorated tools use as much as core plugins do.
export {
  AgentCallErrorCode,
  AgentErrorCode,
  type CodecDefinition,
  currentContext,
  EmbeddingsErrorCode,
  type HealthContext,
  type HealthResult,
  type HealthStatus,
  ImageErrorCode,
  InvalidParamsError,
  type InvokeContext,
  type Manifest,
  NoInvokeContextError,
  type ParameterSchema,
  type ParamIssue,
  type PluginClass,
  type PluginDefinition,
  type PluginServer,
  type ProgressUpdate,
  registerCodec,
  reportProgress,
  SamplingErrorCode,
  type ServerOptions,
  StorageErrorCode,
  ToolError,
  UploadErrorCode,
} from "@executa/core";
// What tools reach through ctx.host (every family's client, error and call shapes) and the
// display helpers: the capability layer whole, so a new family needs no line here.
export * from "@executa/core/capabilities";
export { type BuildPluginOptions, buildPlugin, manifestOf } from "./build-plugin.js";
export { Args, type StandardArgsOptions } from "./decorators/args.js";
export { Credential } from "./decorators/credential.js";
export { Ctx } from "./decorators/ctx.js";
export { Field } from "./decorators/field.js";
export { Health, OnStart, OnStop } from "./decorators/hooks.js";
export { Host } from "./decorators/host.js";
export { Param } from "./decorators/param.js";
export { createParamDecorator } from "./decorators/param-decorator.js";
export { Plugin } from "./decorators/plugin.js";
export { Tool } from "./decorators/tool.js";
export { DefinitionError, type DefinitionErrorCode } from "./errors/definition-error.js";
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
export { Structured, type StructuredOptions } from "./structured/index.js";
