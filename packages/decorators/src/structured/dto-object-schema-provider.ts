import {
  InvalidParamsError,
  type ObjectSchema,
  type ObjectSchemaProvider,
  type ObjectTypeSchema,
  type ObjectValidation,
} from "@executa/core";
import { responseFormatSchema, type SourceField, sourceInfoOf } from "@executa/core/internal";
import { objectCheckerOf } from "../binding/coerce.js";
import { type DtoSupport, dtoSupport, dtoSupportEnabled } from "../dto/dto-support.js";
import { anySourceFacts, dtoWithoutFields } from "../dto/dto-without-fields.js";
import { lineage } from "../metadata/storage.js";
import { argumentsSchema } from "../model/arguments-schema.js";
import { sourceFields } from "../model/source-schema.js";
import { dropNullOptionals } from "./drop-null-optionals.js";
import { structuredOptionsOf } from "./structured.js";

/**
 * Reads DTO classes for `sampling.createObject`: class-validator DTOs, and classes without
 * any decorator whose fields the executa source reader recorded. It reaches class-validator
 * only through the DTO slot that `@Structured()`, `@Args()` and `@Field()` fill, so a
 * plugin without them bundles neither library: its undecorated targets are then read from
 * the source facts alone and built by assigning the checked fields to a new instance.
 */
export const DTO_OBJECT_SCHEMA_PROVIDER: ObjectSchemaProvider = {
  supports: (target) => typeof target === "function",
  schemaOf(target, { strict }): ObjectSchema {
    const options = structuredOptionsOf(target);
    return {
      schema: responseFormatSchema(schemaOf(target), strict),
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
    const schema = schemaOf(target);
    const values = dropNullOptionals(value, schema) as Record<string, unknown>;
    const checked = objectCheckerOf(schema)(values, { coerce: false });
    const dto = support(target);
    if (checked.ok) return built(dto, target, schema, checked.value);
    // The validators' own wording, where they see a problem too (it is fed back to the model).
    const theirs = dto === SOURCE_ONLY ? undefined : await built(dto, target, schema, values);
    return theirs && !theirs.ok ? theirs : { ok: false, issues: checked.issues };
  },
};

/** The validated instance of `target` built from `values`, or the validators' issues. */
async function built<T extends object>(
  dto: DtoSupport,
  target: abstract new () => T,
  schema: ObjectTypeSchema,
  values: Record<string, unknown>,
): Promise<ObjectValidation<T>> {
  try {
    const instance = await dto.toValidatedDto(target, schema, values, `createObject(${target.name})`);
    return { ok: true, value: instance as T };
  } catch (error) {
    if (error instanceof InvalidParamsError) return { ok: false, issues: error.issues };
    throw error;
  }
}

const schemas = new WeakMap<Function, ObjectTypeSchema>();

/** The schema value of a target class, read once. */
function schemaOf(target: Function): ObjectTypeSchema {
  let schema = schemas.get(target);
  if (schema === undefined) {
    const dto = support(target);
    if (!dto.describesArguments(target)) {
      const { problem, fix } = dtoWithoutFields(target, anySourceFacts());
      throw new Error(`createObject(${target.name}): ${problem}. Fix: ${fix}`);
    }
    schema = argumentsSchema(dto.dtoToArguments(target, `createObject(${target.name})`), target);
    schemas.set(target, schema);
  }
  return schema;
}

function support(target: Function): DtoSupport {
  if (dtoSupportEnabled()) return dtoSupport();
  const { unsupported } = sourceNamesOf(target);
  if (unsupported.length > 0) {
    throw new Error(
      `createObject(${target.name}): ${unsupported.join(", ")} of ${target.name} have no JSON Schema form. ` +
        "Fix: type them with strings, numbers, booleans, Date, arrays or classes of those",
    );
  }
  return SOURCE_ONLY;
}

/** The fields the source reader recorded on the class and its ancestors, and those without a manifest form. */
function sourceNamesOf(target: Function): { fields: Record<string, SourceField>; unsupported: string[] } {
  const chain = lineage(target).map((ctor) => sourceInfoOf(ctor));
  return {
    fields: Object.assign({}, ...chain.map((info) => info?.fields)),
    unsupported: chain.flatMap((info) =>
      (info?.unsupported ?? []).filter((entry) => entry.index === undefined).map((entry) => entry.member),
    ),
  };
}

/**
 * Undecorated classes read from the source facts alone, while no decorator has plugged
 * class-validator in: the fields are checked by the schema's checker (types, enums, bounds,
 * nested shapes, dates), then assigned to a new instance.
 */
const SOURCE_ONLY: DtoSupport = {
  describesArguments: (target) => Object.keys(sourceNamesOf(target).fields).length > 0,
  dtoToArguments: (target) => sourceFields(sourceNamesOf(target).fields),
  toValidatedDto: (target, _schema, values) => Object.assign(new (target as new () => object)(), values),
};
