import type {
  FieldMetadata,
  HookMetadata,
  MisuseMetadata,
  ParamMetadata,
  PluginMetadata,
  ToolMetadata,
} from "./definitions.js";

/**
 * The one place decorators record into. Plain lists keyed by class; nothing here reads
 * reflection or validates. Lives on `globalThis` (like class-validator's storage) so two
 * copies of this package in one process (ESM + CJS, or a bundle beside node_modules)
 * still see the same classes.
 */
export class MetadataStorage {
  private readonly plugins = new Map<Function, PluginMetadata[]>();
  private readonly tools = new Map<Function, ToolMetadata[]>();
  private readonly params = new Map<Function, ParamMetadata[]>();
  private readonly fields = new Map<Function, FieldMetadata[]>();
  private readonly hooks = new Map<Function, HookMetadata[]>();
  private readonly misuses = new Map<Function, MisuseMetadata[]>();

  addPlugin(metadata: PluginMetadata): void {
    push(this.plugins, metadata.target, metadata);
  }
  addTool(metadata: ToolMetadata): void {
    push(this.tools, metadata.target, metadata);
  }
  addParam(metadata: ParamMetadata): void {
    push(this.params, metadata.target, metadata);
  }
  addField(metadata: FieldMetadata): void {
    push(this.fields, metadata.target, metadata);
  }
  addHook(metadata: HookMetadata): void {
    push(this.hooks, metadata.target, metadata);
  }
  addMisuse(metadata: MisuseMetadata): void {
    push(this.misuses, metadata.target, metadata);
  }

  /** Every `@Plugin` on exactly this class (more than one is a misuse). */
  pluginsOf(target: Function): readonly PluginMetadata[] {
    return this.plugins.get(target) ?? [];
  }
  /** `@Tool`s of exactly this class, in declaration order. */
  toolsOf(target: Function): readonly ToolMetadata[] {
    return this.tools.get(target) ?? [];
  }
  /** Parameter decorators of one method of exactly this class, in any order. */
  paramsOf(target: Function, methodName: string): readonly ParamMetadata[] {
    return (this.params.get(target) ?? []).filter((param) => param.methodName === methodName);
  }
  /** Methods of exactly this class that carry parameter decorators. */
  methodsWithParams(target: Function): readonly string[] {
    return [...new Set((this.params.get(target) ?? []).map((param) => param.methodName))];
  }
  /** `@Field`s of a DTO class and its ancestors, ancestors first. */
  fieldsOf(target: Function): readonly FieldMetadata[] {
    return lineage(target).flatMap((ctor) => this.fields.get(ctor) ?? []);
  }
  /** Hooks of exactly this class, in declaration order. */
  hooksOf(target: Function): readonly HookMetadata[] {
    return this.hooks.get(target) ?? [];
  }
  /** Misuses recorded on exactly this class. */
  misusesOf(target: Function): readonly MisuseMetadata[] {
    return this.misuses.get(target) ?? [];
  }
}

function push<T>(map: Map<Function, T[]>, key: Function, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The class and its ancestors, the root first (`Object` excluded). */
export function lineage(target: Function): Function[] {
  const chain: Function[] = [];
  for (let ctor: unknown = target; typeof ctor === "function" && ctor !== Function.prototype; ) {
    chain.unshift(ctor);
    ctor = Object.getPrototypeOf(ctor);
  }
  return chain;
}

const STORAGE_KEY = Symbol.for("@executa/decorators:metadata-storage");

/** The process-wide metadata storage. */
export function getMetadataStorage(): MetadataStorage {
  const holder = globalThis as { [STORAGE_KEY]?: MetadataStorage };
  holder[STORAGE_KEY] ??= new MetadataStorage();
  return holder[STORAGE_KEY];
}
