import { dtoSupport } from "../dto/dto-support.js";
import { DecoratorMisuseError } from "../errors/decorator-misuse-error.js";
import { InvalidOptionError } from "../errors/invalid-option-error.js";
import { METADATA_FIX, MetadataMissingError } from "../errors/metadata-missing-error.js";
import { MissingDescriptionError } from "../errors/missing-description-error.js";
import { MixedParamStyleError } from "../errors/mixed-param-style-error.js";
import { UndeclaredCredentialError } from "../errors/undeclared-credential-error.js";
import { UndecoratedParameterError } from "../errors/undecorated-parameter-error.js";
import { UninferableTypeError } from "../errors/uninferable-type-error.js";
import type { ParamMetadata, ToolMetadata } from "../metadata/definitions.js";
import { getMetadataStorage } from "../metadata/storage.js";
import { snakeCase } from "../naming/snake-case.js";
import { classifyReflectedType, methodParamTypes } from "../reflection/reflect-types.js";
import { resolveArgument } from "./resolve-argument.js";
import type { ArgumentSchema, PluginInfo, Slot, ToolModel } from "./types.js";

/** Tool names LLM function calling accepts everywhere. */
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Resolves one `@Tool` method: options, reflected parameter types, one slot per parameter. */
export function resolveTool(
  target: Function,
  className: string,
  tool: ToolMetadata,
  info: PluginInfo,
): ToolModel {
  const { methodName, options } = tool;
  const fail = (problem: string, fix: string) => new InvalidOptionError(className, methodName, problem, fix);
  if (typeof (target.prototype as Record<string, unknown>)[methodName] !== "function") {
    throw new DecoratorMisuseError(
      className,
      methodName,
      "@Tool() is on something that is not a method",
      "put @Tool() on a method",
    );
  }
  if (options === null || typeof options !== "object") {
    throw new MissingDescriptionError(
      className,
      methodName,
      "@Tool() has no options",
      'pass @Tool({ description: "What it does, for the LLM." })',
    );
  }
  if (typeof options.description !== "string" || options.description.trim() === "") {
    throw new MissingDescriptionError(
      className,
      methodName,
      "the tool has no description",
      'add @Tool({ description: "…" }): the LLM chooses tools by their description',
    );
  }
  const name = options.name ?? snakeCase(methodName);
  if (typeof name !== "string" || !TOOL_NAME.test(name)) {
    throw fail(
      `tool name ${JSON.stringify(name)} is not usable`,
      "use 1-64 letters, digits, _ or - (e.g. get_weather)",
    );
  }
  if (options.timeout !== undefined && !(Number.isInteger(options.timeout) && options.timeout > 0)) {
    throw fail(
      `timeout ${JSON.stringify(options.timeout)} is not a whole number of seconds`,
      "give timeout as a positive integer, in seconds",
    );
  }
  if (options.streaming !== undefined && typeof options.streaming !== "boolean") {
    throw fail("streaming is not a boolean", "give streaming: true or false, or leave it out (reserved)");
  }

  const paramTypes = methodParamTypes(target.prototype, methodName);
  if (paramTypes === undefined) {
    throw new MetadataMissingError(
      className,
      methodName,
      "decorator metadata (design:paramtypes) is missing, so parameter types cannot be read",
      METADATA_FIX,
    );
  }
  const decorated = getMetadataStorage().paramsOf(target, methodName);
  const byIndex = new Map<number, ParamMetadata>();
  for (const param of decorated) {
    if (byIndex.has(param.index)) {
      throw new DecoratorMisuseError(
        className,
        `${methodName}, parameter #${param.index}`,
        "the parameter has two parameter decorators",
        "keep one of them (@Param, @Args, @Ctx, @Credential or a custom one)",
      );
    }
    byIndex.set(param.index, param);
  }
  const kinds = new Set(decorated.map((param) => param.source.kind));
  if (kinds.has("param") && kinds.has("args")) {
    throw new MixedParamStyleError(
      className,
      methodName,
      "the method mixes @Param and @Args",
      "use either @Param for each argument or one @Args() DTO holding all of them",
    );
  }
  if (decorated.filter((param) => param.source.kind === "args").length > 1) {
    throw new MixedParamStyleError(
      className,
      methodName,
      "the method has more than one @Args()",
      "use one @Args() DTO holding all arguments",
    );
  }

  const count = Math.max(paramTypes.length, ...decorated.map((param) => param.index + 1));
  const slots: Slot[] = [];
  let args: ArgumentSchema[] = [];
  let dto: Function | undefined;
  for (let index = 0; index < count; index++) {
    const param = byIndex.get(index);
    const where = `${methodName}, parameter #${index}`;
    if (!param) {
      throw new UndecoratedParameterError(
        className,
        where,
        "the parameter has no decorator, so nothing would fill it",
        "decorate it with @Param(name), @Args(), @Ctx() or @Credential(name), or remove it",
      );
    }
    const source = param.source;
    switch (source.kind) {
      case "param": {
        const member =
          typeof source.name === "string" && source.name !== "" ? `${where} "${source.name}"` : where;
        const argument = resolveArgument({
          className,
          member,
          decorator: `@Param(${JSON.stringify(source.name ?? "name")}, …)`,
          name: source.name,
          options: source.options ?? {},
          reflected: classifyReflectedType(paramTypes[index]),
        });
        if (args.some((existing) => existing.name === argument.name)) {
          throw new InvalidOptionError(
            className,
            member,
            `two parameters are named "${argument.name}"`,
            "give each @Param a different name",
          );
        }
        args.push(argument);
        slots.push({ kind: "param", name: argument.name });
        break;
      }
      case "args": {
        const reflected = classifyReflectedType(paramTypes[index]);
        if (reflected.kind !== "class") {
          throw new UninferableTypeError(
            className,
            where,
            `@Args() needs a DTO class as the parameter type; reflection says ${reflected.kind === "primitive" ? reflected.type : reflected.label}`,
            "type the parameter with a class decorated with class-validator (interfaces and type aliases reflect as Object)",
          );
        }
        const dtos = dtoSupport();
        if (!dtos.describesArguments(reflected.class)) {
          throw new InvalidOptionError(
            className,
            where,
            `the DTO class ${reflected.class.name} has no decorated properties`,
            "decorate its properties with class-validator (@IsString(), …) or @Field()",
          );
        }
        dto = reflected.class;
        args = dtos.dtoToArguments(dto, `@Args() of ${className}.${methodName}`);
        slots.push({ kind: "args", dto });
        break;
      }
      case "context":
        slots.push({ kind: "context" });
        break;
      case "credential": {
        const declared = info.credentials ?? [];
        const spec = declared.find((credential) => credential.name === source.name);
        if (!spec) {
          const names = declared.map((credential) => credential.name);
          throw new UndeclaredCredentialError(
            className,
            `${where} @Credential(${JSON.stringify(source.name)})`,
            `credential ${JSON.stringify(source.name)} is not declared (declared: ${names.join(", ") || "none"})`,
            `declare it: @Plugin({ credentials: [{ name: ${JSON.stringify(source.name)}, description: "…" }] })`,
          );
        }
        slots.push({ kind: "credential", name: spec.name, required: spec.required === true });
        break;
      }
      case "custom":
        slots.push({ kind: "custom", data: source.data, resolve: source.resolve });
        break;
    }
  }

  const model: ToolModel = { methodName, name, description: options.description, arguments: args, slots };
  if (options.timeout !== undefined) model.timeout = options.timeout;
  if (options.streaming !== undefined) model.streaming = options.streaming;
  if (dto) model.dto = dto;
  return model;
}
