import { InvalidParamsError, type InvokeContext, ToolError } from "@executa/core";
import { argumentsTooDeepError } from "@executa/core/internal";
import { dtoSupport } from "../dto/dto-support.js";
import type { Slot, ToolModel } from "../model/types.js";
import { standardArguments } from "../standard/standard-args.js";
import { andThen } from "./and-then.js";
import { objectCheckerOf } from "./coerce.js";
import { invalidArguments } from "./invalid-arguments.js";
import { isPlainObject, NestedTooDeepError, stripUnsafeKeys } from "./sanitize.js";

const COERCE = { coerce: true } as const;

/**
 * Per invoke: sanitizes the arguments, checks and coerces them against the tool's
 * arguments (unknown names, missing required, types, enums, defaults), builds and validates
 * the DTO for `@Args()` tools, then returns the method's positional arguments.
 *
 * Synchronous unless the DTO has asynchronous constraints, so that a plain tool is
 * answered without a promise. Throws `InvalidParamsError` (-32602, issues in
 * `error.data`) for bad arguments and `ToolError` (`success: false`) for a required
 * credential that is not configured.
 */
export function bindInvocation(
  tool: ToolModel,
  rawArgs: unknown,
  context: InvokeContext,
): unknown[] | Promise<unknown[]> {
  const args = sanitizedArguments(rawArgs);
  if (!isPlainObject(args)) {
    throw new InvalidParamsError(`Invalid arguments for tool "${tool.name}": arguments must be an object`, [
      { path: "", message: "must be an object", expected: "object" },
    ]);
  }
  if (tool.standard !== undefined) {
    return andThen(standardArguments(tool, tool.standard, args), (value) =>
      slotValues(tool, args, value, context),
    );
  }
  const checked = objectCheckerOf(tool.input)(args, COERCE);
  if (!checked.ok) throw invalidArguments(tool.name, argumentNames(tool), checked.issues);
  const values = checked.value;
  if (tool.dto === undefined) return slotValues(tool, values, undefined, context);
  return andThen(dtoSupport().toValidatedDto(tool.dto, tool.input, values, tool.name), (dto) =>
    slotValues(tool, values, dto, context),
  );
}

// No named closure per invoke on this path: bundles keep names (esbuild `keepNames`), and
// each named closure created would cost a defineProperty call (~6% of a small invoke).
function slotValues(
  tool: ToolModel,
  values: Record<string, unknown>,
  dto: unknown,
  context: InvokeContext,
): unknown[] {
  return tool.slots.map((slot) => slotValue(slot, values, dto, context));
}

function slotValue(
  slot: Slot,
  values: Record<string, unknown>,
  dto: unknown,
  context: InvokeContext,
): unknown {
  switch (slot.kind) {
    case "param":
      return values[slot.name];
    case "args":
    case "standard":
      return dto;
    case "context":
      return context;
    case "credential": {
      const value = context.credential(slot.name);
      if (value === undefined && slot.required) {
        throw new ToolError(
          `credential ${slot.name} is not configured: set it in the plugin's settings ` +
            `(or the ${slot.name} environment variable when developing locally)`,
        );
      }
      return value;
    }
    case "custom":
      return slot.resolve(slot.data, { args: values, context });
  }
}

/** The arguments without prototype-reaching keys; -32602 when they nest too deep to walk. */
function sanitizedArguments(rawArgs: unknown): unknown {
  try {
    return stripUnsafeKeys(rawArgs ?? {});
  } catch (error) {
    if (error instanceof NestedTooDeepError) throw argumentsTooDeepError();
    throw error;
  }
}

const argumentNameLists = new WeakMap<ToolModel, readonly string[]>();

function argumentNames(tool: ToolModel): readonly string[] {
  let names = argumentNameLists.get(tool);
  if (names === undefined) {
    names = Object.keys(tool.input.properties ?? {});
    argumentNameLists.set(tool, names);
  }
  return names;
}
