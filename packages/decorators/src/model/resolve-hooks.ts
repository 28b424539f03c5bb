import { DefinitionError } from "../errors/definition-error.js";
import type { HookKind, HookMetadata } from "../metadata/definitions.js";
import { getMetadataStorage } from "../metadata/storage.js";
import { classNameOf } from "./class-name.js";
import type { PluginModel } from "./types.js";

const HOOK_DECORATORS: Record<HookKind, string> = {
  health: "@Health()",
  start: "@OnStart()",
  stop: "@OnStop()",
};

/** Where the model keeps the method name of each hook kind. */
const HOOK_FIELDS = { health: "health", start: "onStart", stop: "onStop" } as const satisfies Record<
  HookKind,
  keyof PluginModel
>;

/** The hooks' method names, by model field: the nearest class's hook of each kind. */
export type ResolvedHooks = Partial<Pick<PluginModel, (typeof HOOK_FIELDS)[HookKind]>>;

/**
 * The `@Health`, `@OnStart` and `@OnStop` methods of a class and its base classes (of
 * each kind, the nearest class's). Throws a {@link DefinitionError} for a hook used twice
 * in one class, on something that is not a method, or on a `@Tool` method.
 */
export function resolveHooks(chain: readonly Function[], toolMethods: ReadonlySet<string>): ResolvedHooks {
  const hooks: ResolvedHooks = {};
  for (const kind of ["health", "start", "stop"] as const) {
    const hook = inheritedHook(chain, kind);
    if (!hook) continue;
    checkHookMethod(hook, toolMethods);
    hooks[HOOK_FIELDS[kind]] = hook.methodName;
  }
  return hooks;
}

function checkHookMethod(hook: HookMetadata, toolMethods: ReadonlySet<string>): void {
  const owner = classNameOf(hook.target);
  const decorator = HOOK_DECORATORS[hook.hook];
  if (typeof (hook.target.prototype as Record<string, unknown>)[hook.methodName] !== "function") {
    throw new DefinitionError(
      "DECORATOR_MISPLACED",
      owner,
      hook.methodName,
      `${decorator} is on something that is not a method`,
      `put ${decorator} on a method`,
    );
  }
  if (toolMethods.has(hook.methodName)) {
    throw new DefinitionError(
      "DECORATOR_MISPLACED",
      owner,
      hook.methodName,
      `${decorator} is on a @Tool method`,
      "use a separate method for the hook",
    );
  }
}

/** The hook of one kind nearest to the class (its own, else its closest base class's). */
function inheritedHook(chain: readonly Function[], kind: HookKind): HookMetadata | undefined {
  const storage = getMetadataStorage();
  let nearest: HookMetadata | undefined;
  for (const ctor of chain) {
    const [first, second] = storage.hooksOf(ctor).filter((hook) => hook.hook === kind);
    const decorator = HOOK_DECORATORS[kind];
    if (second) {
      throw new DefinitionError(
        "DECORATOR_REPEATED",
        classNameOf(ctor),
        second.methodName,
        `${decorator} is used on ${first?.methodName} and ${second.methodName}`,
        `keep one ${decorator} method; call the others from it`,
      );
    }
    if (first) nearest = first;
  }
  return nearest;
}
