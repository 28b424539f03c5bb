import type { HookKind } from "../metadata/definitions.js";
import { getMetadataStorage } from "../metadata/storage.js";
import { memberTarget } from "./member-target.js";

function hookDecorator(decorator: string, hook: HookKind): MethodDecorator {
  return (target, key) => {
    const member = memberTarget(decorator, target, key);
    if (member) getMetadataStorage().addHook({ target: member.target, methodName: member.name, hook });
  };
}

/**
 * Marks the method that answers `health`. It receives core's `HealthContext` and returns a
 * status (`"ready" | "error" | "initializing"`) or a full `{ status, message, details }`;
 * a throw answers `{ status: "error" }`. One per plugin.
 */
export function Health(): MethodDecorator {
  return hookDecorator("@Health()", "health");
}

/**
 * Marks a method the server runs once after it started and before the first invoke runs
 * (`health` answers "initializing" meanwhile). A throw makes every invoke fail. One per plugin.
 */
export function OnStart(): MethodDecorator {
  return hookDecorator("@OnStart()", "start");
}

/** Marks a method the server runs once while stopping, after in-flight invokes settled. One per plugin. */
export function OnStop(): MethodDecorator {
  return hookDecorator("@OnStop()", "stop");
}
