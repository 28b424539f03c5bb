import type { ParamResolveInput, ParamSource } from "../metadata/definitions.js";
import { getMetadataStorage } from "../metadata/storage.js";
import { memberTarget } from "./member-target.js";

/**
 * The one factory every parameter decorator is made by (like NestJS's
 * `createRouteParamDecorator`): it records which source fills parameter #index.
 */
export function recordParam(decorator: string, source: ParamSource): ParameterDecorator {
  return (target, key, index) => {
    const member = memberTarget(decorator, target, key);
    if (member)
      getMetadataStorage().addParam({ target: member.target, methodName: member.name, index, source });
  };
}

/**
 * Creates a custom parameter decorator whose value is computed per invoke.
 *
 * ```ts
 * const InvokeId = createParamDecorator((_data, { context }) => context.invokeId);
 * class P { @Tool({ description: "…" }) run(@InvokeId() id: string | undefined) {} }
 * ```
 *
 * Custom parameters add nothing to the manifest. `name` is used in error messages.
 */
export function createParamDecorator<Data = undefined>(
  resolve: (data: Data, input: ParamResolveInput) => unknown,
  name = "custom parameter decorator",
): (data?: Data) => ParameterDecorator {
  return (data?: Data) =>
    recordParam(name, {
      kind: "custom",
      decorator: name,
      data,
      resolve: resolve as (data: unknown, input: ParamResolveInput) => unknown,
    });
}
