import type { InvokeContext } from "../context/invoke-context.js";
import type { McpServeOptions } from "../mcp/fallback.js";
import type { OutputSchema } from "../mcp/input-schema.js";
import type { ObjectTypeSchema } from "../schema/schema.js";
import type { HealthResult, InitializeParams } from "../wire/invoke.js";
import type { Manifest } from "../wire/manifest.js";

/**
 * Handles one tool invoke. Return the `data` for `{ success: true }`; throw a `ToolError`
 * for `{ success: false }`, an `InvalidParamsError` for -32602, anything else for -32603.
 */
export type ToolHandler = (args: Record<string, unknown>, context: InvokeContext) => unknown;

/** Runtime options of the plugin server. */
export interface ServerOptions {
  /** Invokes that run at once; more queue in arrival order. Default 16. */
  concurrency?: number;
  /** How long in-flight invokes may finish after a stop was asked for. Default 4000 ms. */
  shutdownGraceMs?: number;
  /** Responses larger than this go by file transport. Default 512 KiB; `Infinity` disables. */
  fileTransportThresholdBytes?: number;
  /** Directory for file-transport files; a private temp directory by default. */
  fileTransportDir?: string;
  /** Longest accepted input line. Default 16 MiB. */
  maxFrameBytes?: number;
  /**
   * How the plugin behaves when served over MCP: a `fallback` answers the reverse calls MCP
   * cannot carry (storage, files); without one they fail with their not-negotiated error.
   */
  mcp?: McpServeOptions;
}

/** What the health hook sees. */
export interface HealthContext {
  /** The version negotiated by `initialize` ("1.1" until a v2 host initializes). */
  readonly protocolVersion: string;
}

/**
 * A plugin as core serves it: a manifest and one handler per tool. Decorated classes
 * compile to this; it can also be written by hand (see {@link definePlugin}).
 */
export interface PluginDefinition {
  manifest: Manifest;
  /** One handler per tool, keyed by the tool's name in the manifest. */
  handlers: Readonly<Record<string, ToolHandler>>;
  /**
   * Each tool's input (its argument object) as a schema value, by tool name: MCP lists its
   * projection as the tool's `inputSchema` (formats, nested `required`, bounds, enum names,
   * `$ref` for recursion), where a tool without one is described from the manifest. Not
   * part of the Executa manifest, which is projected from the same value.
   */
  inputSchemas?: Readonly<Record<string, ObjectTypeSchema>>;
  /**
   * The JSON Schema of each tool's result, by tool name, for tools whose result is a JSON
   * object: MCP lists it as the tool's `outputSchema` (revisions with structured content).
   * Not part of the Executa manifest.
   */
  outputSchemas?: Readonly<Record<string, OutputSchema>>;
  /**
   * The OAuth scopes each tool needs, by tool name: over MCP HTTP with an issuer configured,
   * a `tools/call` whose access token lacks one is refused with 403 `insufficient_scope`.
   * Not part of the Executa manifest.
   */
  toolScopes?: Readonly<Record<string, readonly string[]>>;
  /** Answers `health`; a thrown error answers `{ status: "error" }`. */
  health?: (context: HealthContext) => HealthResult | Promise<HealthResult>;
  /** Runs once before the first request is read; `health` answers "initializing" meanwhile. */
  onStart?: () => void | Promise<void>;
  /** Runs once while stopping, after in-flight invokes settled. */
  onStop?: () => void | Promise<void>;
  /** Runs when `initialize` arrives, with the host's params. */
  onInitialize?: (params: InitializeParams) => void | Promise<void>;
  options?: ServerOptions;
}

/**
 * A plugin class: what `@executa/decorators` compiles to a {@link PluginDefinition}
 * (`buildPlugin`, `serve`) and `@executa/testing` accepts in place of one. Its
 * constructor may take arguments when a factory creates the instance.
 */
export type PluginClass<T extends object = object> = abstract new (...args: never[]) => T;

/**
 * Checks a hand-written definition (every tool has a handler and every handler a tool)
 * and returns it. Throws an `Error` naming what is wrong.
 */
export function definePlugin(definition: PluginDefinition): PluginDefinition {
  const names = new Set<string>();
  for (const tool of definition.manifest.tools) {
    if (names.has(tool.name))
      throw new Error(`plugin ${definition.manifest.name}: duplicate tool name "${tool.name}"`);
    names.add(tool.name);
    if (typeof definition.handlers[tool.name] !== "function") {
      throw new Error(`plugin ${definition.manifest.name}: tool "${tool.name}" has no handler`);
    }
  }
  for (const name of Object.keys(definition.handlers)) {
    if (!names.has(name))
      throw new Error(`plugin ${definition.manifest.name}: handler "${name}" is not in the manifest`);
  }
  if (definition.manifest.tools.length === 0)
    throw new Error(`plugin ${definition.manifest.name}: declares no tools`);
  return definition;
}
