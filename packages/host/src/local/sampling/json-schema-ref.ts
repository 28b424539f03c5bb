type Schema = Record<string, unknown>;

/** `#/$defs/Name` (or `#/definitions/Name`) of `root`; other references are not followed. */
export function resolveRef(schema: Schema, root: Schema): Schema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === "string" && hops < 32; hops++) {
    const parts = current.$ref.replace(/^#\/?/, "").split("/").filter(Boolean);
    let target: unknown = root;
    for (const part of parts) target = (target as Schema | undefined)?.[part.replace(/~1/g, "/")];
    if (!isSchema(target)) return {};
    current = target;
  }
  return current;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
