/**
 * Structured sampling from DTO classes: importing `@executa/decorators` registers the DTO
 * reader with core, so that `ctx.host.sampling.createObject(SomeDto, …)` works.
 */
import { registerObjectSchemaProvider } from "@executa/core/internal";
import { DTO_OBJECT_SCHEMA_PROVIDER } from "./dto-object-schema-provider.js";

registerObjectSchemaProvider(DTO_OBJECT_SCHEMA_PROVIDER);

export { Structured, type StructuredOptions } from "./structured.js";
