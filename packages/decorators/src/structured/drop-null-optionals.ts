import type { ArgumentSchema } from "../model/types.js";

/**
 * `value` without the `null`s strict mode let the model put in optional properties (so
 * that defaults and `@IsOptional()` apply as when the property is absent), recursively
 * through nested DTOs.
 */
export function dropNullOptionals(value: unknown, args: readonly ArgumentSchema[]): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const arg of args) {
    const field = out[arg.name];
    if (field === null && !arg.required) delete out[arg.name];
    else if (arg.fields) out[arg.name] = dropNullOptionals(field, arg.fields);
    else if (Array.isArray(field) && arg.items?.fields) {
      const fields = arg.items.fields;
      out[arg.name] = field.map((item) => dropNullOptionals(item, fields));
    }
  }
  return out;
}
