import type { ObjectTypeSchema } from "@executa/core";
import { type SourceParameter, sourceInfoOf } from "@executa/core/internal";
import { dtoSupport } from "../dto/dto-support.js";
import { dtoWithoutFields } from "../dto/dto-without-fields.js";
import { DefinitionError } from "../errors/definition-error.js";
import type { ParamSource } from "../metadata/definitions.js";
import { classifyReflectedType } from "../reflection/reflect-types.js";
import { standardArgsInput } from "../standard/standard-args.js";
import { resolveArgument } from "./resolve-argument.js";
import type { PluginInfo, ResolvedArgument, Slot } from "./types.js";
import type { UnsupportedType } from "./unsupported-type.js";

/** Where a parameter is, and what its resolver may need to know about the plugin. */
export interface SlotSite {
  /** The plugin class. */
  target: Function;
  className: string;
  methodName: string;
  /** `getWeather, parameter #0`, for messages. */
  where: string;
  /** The parameter's `design:paramtypes` entry. */
  reflectedType: unknown;
  /** What the source declares about the parameter, if known. */
  source?: SourceParameter;
  /** The source reader found the parameter's type without a faithful manifest form. */
  unsupported?: UnsupportedType;
  info: PluginInfo;
}

/** What one parameter contributes to its tool: how to fill it, and the manifest arguments it declares. */
export interface ResolvedSlot {
  slot: Slot;
  /** Arguments this parameter adds to the manifest (`@Param`: one; `@Args`: the DTO's). */
  arguments?: readonly ResolvedArgument[];
  /** The DTO class of an `@Args()` parameter. */
  dto?: Function;
  /** The whole input of the tool, when the parameter declares it as one schema value (`@Args(schema)`). */
  input?: ObjectTypeSchema;
}

type SlotResolver<Kind extends ParamSource["kind"]> = (
  source: Extract<ParamSource, { kind: Kind }>,
  site: SlotSite,
) => ResolvedSlot;

/**
 * One resolver per kind of parameter decorator: `@Param`, `@Args`, `@Ctx`, `@Credential`,
 * and custom ones (`@Host()` and `createParamDecorator`). A new kind of parameter is a
 * new `ParamSource` kind, a new `Slot` kind, an entry here, and its binding.
 */
const SLOT_RESOLVERS: { readonly [Kind in ParamSource["kind"]]: SlotResolver<Kind> } = {
  param: resolveParamSlot,
  args: resolveArgsSlot,
  context: () => ({ slot: { kind: "context" } }),
  credential: resolveCredentialSlot,
  custom: (source) => ({ slot: { kind: "custom", data: source.data, resolve: source.resolve } }),
};

/** Resolves one decorated parameter with the resolver of its kind. */
export function resolveSlot(source: ParamSource, site: SlotSite): ResolvedSlot {
  const resolver = SLOT_RESOLVERS[source.kind] as (source: ParamSource, site: SlotSite) => ResolvedSlot;
  return resolver(source, site);
}

/**
 * `@Param(name, options)`, `@Param(options)`, `@Param()` or no decorator: one argument,
 * named by the decorator or else as in the source, typed by its options, the source or
 * reflection.
 */
function resolveParamSlot(source: Extract<ParamSource, { kind: "param" }>, site: SlotSite): ResolvedSlot {
  const name = source.name ?? site.source?.name;
  const named = typeof name === "string" && name !== "";
  const argument = resolveArgument({
    className: site.className,
    member: named ? `${site.where} "${name}"` : site.where,
    decorator: `@Param(${JSON.stringify(name ?? "name")}, …)`,
    name,
    options: source.options ?? {},
    reflected: classifyReflectedType(site.reflectedType),
    ...(site.source && { source: site.source }),
    ...(site.unsupported && { unsupported: site.unsupported }),
  });
  return { slot: { kind: "param", name: argument.name }, arguments: [argument] };
}

/**
 * `@Args()`: the parameter's class is a DTO whose decorated properties are the arguments.
 * `@Args(schema)`: the Standard Schema's JSON Schema is the tool's input.
 */
function resolveArgsSlot(source: Extract<ParamSource, { kind: "args" }>, site: SlotSite): ResolvedSlot {
  const { className, methodName, where } = site;
  if (source.standard !== undefined) {
    const input = standardArgsInput(source.standard, site);
    return { slot: { kind: "standard", schema: source.standard.schema }, input };
  }
  const reflected = classifyReflectedType(site.reflectedType);
  if (reflected.kind !== "class") {
    throw new DefinitionError(
      "UNINFERABLE_TYPE",
      className,
      where,
      `@Args() needs a DTO class as the parameter type; reflection says ${reflected.kind === "primitive" ? reflected.type : reflected.label}`,
      "type the parameter with a class whose public properties are the arguments (interfaces and type aliases reflect as Object)",
    );
  }
  const dtos = dtoSupport();
  const dto = reflected.class;
  if (!dtos.describesArguments(dto)) {
    const { problem, fix } = dtoWithoutFields(dto, sourceInfoOf(site.target) !== undefined);
    throw new DefinitionError("DTO_WITHOUT_FIELDS", className, where, problem, fix);
  }
  const args = dtos.dtoToArguments(dto, `@Args() of ${className}.${methodName}`);
  return { slot: { kind: "args", dto }, arguments: args, dto };
}

/** `@Credential(name)`: a credential `@Plugin({ credentials })` declares. */
function resolveCredentialSlot(
  source: Extract<ParamSource, { kind: "credential" }>,
  site: SlotSite,
): ResolvedSlot {
  const declared = site.info.credentials ?? [];
  const spec = declared.find((credential) => credential.name === source.name);
  if (!spec) {
    const names = declared.map((credential) => credential.name);
    throw new DefinitionError(
      "UNDECLARED_CREDENTIAL",
      site.className,
      `${site.where} @Credential(${JSON.stringify(source.name)})`,
      `credential ${JSON.stringify(source.name)} is not declared (declared: ${names.join(", ") || "none"})`,
      `declare it: @Plugin({ credentials: [{ name: ${JSON.stringify(source.name)}, description: "…" }] })`,
    );
  }
  return { slot: { kind: "credential", name: spec.name, required: spec.required === true } };
}
