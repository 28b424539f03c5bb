import type { ArgumentSchema, ItemSchema } from "../model/types.js";

// The fields of every DTO class read so far. A recursive DTO (`children?: CategoryNode[]`)
// is expanded once in the manifest; below that, its values are checked against the
// fields of their class, found here, so that every depth is checked the same way.
const fieldsByClass = new WeakMap<Function, readonly ArgumentSchema[]>();

/** Records the fields a DTO class was read into. */
export function recordDtoFields(dto: Function, fields: readonly ArgumentSchema[]): void {
  fieldsByClass.set(dto, fields);
}

/** The fields a DTO class was read into, if it was. */
export function fieldsOfClass(dto: Function): readonly ArgumentSchema[] | undefined {
  return fieldsByClass.get(dto);
}

/**
 * The fields an object value is checked against: those of its DTO class when it has one
 * (at a recursion point the schema itself stops), else the schema's known shape.
 */
export function objectFields(
  schema: Pick<ItemSchema, "fields" | "dto">,
): readonly ArgumentSchema[] | undefined {
  return (schema.dto && fieldsByClass.get(schema.dto)) || schema.fields;
}
