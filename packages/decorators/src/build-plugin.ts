import type {
  HealthContext,
  Manifest,
  OutputSchema,
  PluginClass,
  PluginDefinition,
  ServerOptions,
  ToolHandler,
} from "@executa/core";
import { encodeResult, jsonSchemaOf } from "@executa/core/internal";
import { andThen } from "./binding/and-then.js";
import { bindInvocation } from "./binding/bind-invocation.js";
import { DefinitionError } from "./errors/definition-error.js";
import { normalizeHealth } from "./hooks/normalize-health.js";
import { buildManifest } from "./manifest/build-manifest.js";
import { resolvePlugin } from "./model/resolve-plugin.js";
import { toolOutputSchema } from "./model/tool-output.js";
import type { PluginModel } from "./model/types.js";

/** How {@link buildPlugin} makes the one plugin instance. */
export interface BuildPluginOptions<T extends object = object> {
  /** Creates the instance; default `new Class()` (which then must take no required arguments). */
  factory?: () => T;
  /** Server options over those of `@Plugin({ server })`. */
  server?: ServerOptions;
}

/**
 * Compiles a decorated class into core's `PluginDefinition`: the manifest, one handler per
 * tool (binding and validating arguments per invoke), health and lifecycle hooks, server
 * options. Creates the one instance every invoke runs on.
 *
 * Throws a `DefinitionError` when the class cannot be a plugin.
 */
export function buildPlugin<T extends object>(
  target: PluginClass<T>,
  options: BuildPluginOptions<T> = {},
): PluginDefinition {
  const model = resolvePlugin(target);
  const manifest = buildManifest(model);
  const instance = createInstance(model, options.factory);
  const method = (name: string): ((...args: unknown[]) => unknown) => {
    const fn = (instance as Record<string, unknown>)[name];
    if (typeof fn !== "function") {
      throw new DefinitionError(
        "INSTANCE_FAILED",
        model.className,
        name,
        "the instance has no such method",
        "make the factory return an instance of the class",
      );
    }
    return fn.bind(instance);
  };

  const handlers: Record<string, ToolHandler> = {};
  for (const tool of model.tools) {
    const run = method(tool.methodName);
    handlers[tool.name] = (args, context) =>
      andThen(
        andThen(bindInvocation(tool, args, context), (values) => run(...values)),
        encodeResult,
      );
  }
  const definition: PluginDefinition = { manifest, handlers };
  definition.inputSchemas = Object.fromEntries(model.tools.map((tool) => [tool.name, tool.input]));
  // Only MCP shows them: built when first read, so that a plugin serving Executa never
  // spends start-up work, or the memory it leaves behind, on them.
  let outputSchemas: PluginDefinition["outputSchemas"] | null = null;
  Object.defineProperty(definition, "outputSchemas", {
    enumerable: true,
    get: () => {
      outputSchemas ??= outputSchemasOf(model);
      return outputSchemas;
    },
  });
  const toolScopes = Object.fromEntries(
    model.tools.flatMap((tool) => (tool.scopes?.length ? [[tool.name, tool.scopes]] : [])),
  );
  if (Object.keys(toolScopes).length > 0) definition.toolScopes = toolScopes;
  if (model.health) {
    const health = method(model.health);
    const where = `${model.className}.${model.health}()`;
    definition.health = async (context: HealthContext) => normalizeHealth(await health(context), where);
  }
  if (model.onStart) {
    const start = method(model.onStart);
    definition.onStart = async () => {
      await start();
    };
  }
  if (model.onStop) {
    const stop = method(model.onStop);
    definition.onStop = async () => {
      await stop();
    };
  }
  if (model.server || options.server) definition.options = { ...model.server, ...options.server };
  return definition;
}

/** Each tool's MCP `outputSchema`, from its method's return type; undefined when none has one. */
function outputSchemasOf(model: PluginModel): PluginDefinition["outputSchemas"] {
  const schemas = Object.fromEntries(
    model.tools.flatMap((tool) => {
      const output = toolOutputSchema(model.target, model.className, tool.methodName);
      return output ? [[tool.name, jsonSchemaOf(output) as OutputSchema]] : [];
    }),
  );
  return Object.keys(schemas).length > 0 ? schemas : undefined;
}

/**
 * The manifest of a decorated class, exactly as its server answers `describe`, without
 * creating an instance. Throws like {@link buildPlugin}.
 */
export function manifestOf(target: Function): Manifest {
  return buildManifest(resolvePlugin(target));
}

function createInstance(model: PluginModel, factory: (() => object) | undefined): object {
  let instance: unknown;
  if (factory) {
    try {
      instance = factory();
    } catch (error) {
      throw new DefinitionError(
        "INSTANCE_FAILED",
        model.className,
        "factory",
        `the factory threw: ${(error as Error).message}`,
        "fix the factory passed in the options",
      );
    }
  } else {
    const ctor = model.target as new () => object;
    if (ctor.length > 0) {
      throw new DefinitionError(
        "INSTANCE_FAILED",
        model.className,
        "constructor",
        `the constructor takes ${ctor.length} argument(s), but the plugin is created without any`,
        `pass a factory: serve(${model.className}, { factory: () => new ${model.className}(…) })`,
      );
    }
    try {
      instance = new ctor();
    } catch (error) {
      throw new DefinitionError(
        "INSTANCE_FAILED",
        model.className,
        "constructor",
        `the constructor threw: ${(error as Error).message}`,
        "make the constructor succeed, or pass a factory",
      );
    }
  }
  if (typeof instance !== "object" || instance === null) {
    throw new DefinitionError(
      "INSTANCE_FAILED",
      model.className,
      "factory",
      "the factory did not return an object",
      "return the plugin instance from the factory",
    );
  }
  return instance;
}
