import { sourceInfoOf } from "@executa/core/internal";
import { objectCheckerOf } from "../binding/coerce.js";
import { DefinitionError } from "../errors/definition-error.js";
import type { ToolMetadata } from "../metadata/definitions.js";
import { argumentsSchema } from "./arguments-schema.js";
import { resolveSlot } from "./slot-resolvers.js";
import { checkResultCarried } from "./tool-output.js";
import { toolParameters } from "./tool-parameters.js";
import type { PluginInfo, ResolvedArgument, Slot, ToolModel } from "./types.js";
import { validateToolOptions } from "./validate-tool-options.js";

/**
 * Resolves one `@Tool` method: its options, then one slot per parameter (each by the
 * resolver of its decorator's kind), collecting the arguments the slots declare.
 */
export function resolveTool(
  target: Function,
  className: string,
  tool: ToolMetadata,
  info: PluginInfo,
): ToolModel {
  const { methodName } = tool;
  checkPublic(target, className, methodName);
  const options = validateToolOptions(target, className, methodName, tool.options);
  const slots: Slot[] = [];
  const args: ResolvedArgument[] = [];
  let dto: Function | undefined;
  let input: ToolModel["input"] | undefined;
  for (const { where, param, reflectedType, source, unsupported } of toolParameters(
    target,
    className,
    methodName,
  )) {
    const site = {
      target,
      className,
      methodName,
      where,
      reflectedType,
      info,
      ...(source && { source }),
      ...(unsupported && { unsupported }),
    };
    const resolved = resolveSlot(param.source, site);
    slots.push(resolved.slot);
    for (const argument of resolved.arguments ?? []) addArgument(args, argument, className, where);
    dto ??= resolved.dto;
    input ??= resolved.input;
  }
  // A tool with `@Args()` has no other arguments (see tool-parameters): its input is the DTO's
  // schema, or the Standard Schema's converted value.
  input ??= argumentsSchema(args, dto);
  // Compiled now, not at the first invoke.
  objectCheckerOf(input);
  const model: ToolModel = { methodName, ...options, input, slots };
  if (dto) model.dto = dto;
  for (const slot of slots) if (slot.kind === "standard") model.standard = slot.schema;
  // The result's schema itself is built when MCP asks for it (see buildPlugin).
  checkResultCarried(target, className, methodName);
  return model;
}

/**
 * A tool is public to every agent, so a method TypeScript declares `private` or
 * `protected` (known from the source facts: the modifier leaves no trace at runtime)
 * cannot be one without contradicting its own declaration.
 */
function checkPublic(target: Function, className: string, methodName: string): void {
  const visibility = sourceInfoOf(target)?.methods?.[methodName]?.visibility;
  if (!visibility) return;
  throw new DefinitionError(
    "DECORATOR_MISPLACED",
    className,
    methodName,
    `@Tool() is on a ${visibility} method, but a tool is callable by every agent`,
    `make the method public (remove \`${visibility}\`), or remove @Tool() and call the method from a tool`,
  );
}

function addArgument(args: ResolvedArgument[], argument: ResolvedArgument, className: string, where: string) {
  if (args.some((existing) => existing.name === argument.name)) {
    throw new DefinitionError(
      "DUPLICATE_ARGUMENT_NAME",
      className,
      `${where} "${argument.name}"`,
      `two parameters are named "${argument.name}"`,
      "give each @Param a different name",
    );
  }
  args.push(argument);
}
