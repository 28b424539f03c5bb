import {
  InvalidParamsError,
  type ObjectSchema,
  type ObjectSchemaProvider,
  type ObjectValidation,
} from "@executa/core";
import { type DtoSupport, dtoSupport } from "../dto/dto-support.js";
import type { ArgumentSchema } from "../model/types.js";
import { argumentsJsonSchema, dropNullOptionals } from "./arguments-json-schema.js";
import { structuredOptionsOf } from "./structured.js";

/**
 * Reads class-validator DTOs for `sampling.createObject`. It reaches class-validator only
 * through the DTO slot that `@Structured()`, `@Args()` and `@Field()` fill, so a plugin
 * without DTOs still bundles neither library.
 */
export const DTO_OBJECT_SCHEMA_PROVIDER: ObjectSchemaProvider = {
  supports: (target) => typeof target === "function",
  schemaOf(target, { strict }): ObjectSchema {
    const options = structuredOptionsOf(target);
    return {
      schema: argumentsJsonSchema(argumentsOf(target), strict),
      name: options?.name ?? target.name,
      ...(options?.description !== undefined ? { description: options.description } : {}),
    };
  },
  async validate<T extends object>(
    target: abstract new () => T,
    value: unknown,
  ): Promise<ObjectValidation<T>> {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { ok: false, issues: [{ path: "", message: "must be a JSON object" }] };
    }
    const values = dropNullOptionals(value, argumentsOf(target)) as Record<string, unknown>;
    try {
      const instance = await support(target).toValidatedDto(target, values, `createObject(${target.name})`);
      return { ok: true, value: instance as T };
    } catch (error) {
      if (error instanceof InvalidParamsError) return { ok: false, issues: error.issues };
      throw error;
    }
  },
};

const readings = new WeakMap<Function, ArgumentSchema[]>();

function argumentsOf(target: Function): ArgumentSchema[] {
  let args = readings.get(target);
  if (args === undefined) {
    const dto = support(target);
    if (!dto.describesArguments(target)) {
      throw new Error(
        `createObject(${target.name}): ${target.name} has no class-validator decorators or @Field(): ` +
          "decorate its properties (e.g. @IsString()) so that its JSON Schema can be read",
      );
    }
    args = dto.dtoToArguments(target, `createObject(${target.name})`);
    readings.set(target, args);
  }
  return args;
}

function support(target: Function): DtoSupport {
  try {
    return dtoSupport();
  } catch {
    throw new Error(
      `createObject(${target.name}): DTO support is not enabled: decorate ${target.name} with @Structured() ` +
        "from @executa/decorators",
    );
  }
}
