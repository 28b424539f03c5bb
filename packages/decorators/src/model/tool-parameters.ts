import { type SourceParameter, sourceInfoOf } from "@executa/core/internal";
import { DefinitionError } from "../errors/definition-error.js";
import { METADATA_FIX } from "../errors/metadata-fix.js";
import type { ParamMetadata } from "../metadata/definitions.js";
import { getMetadataStorage } from "../metadata/storage.js";
import { classifyReflectedType, methodParamTypes } from "../reflection/reflect-types.js";
import { type UnsupportedType, unsupportedParameter, unsupportedTypeError } from "./unsupported-type.js";

/** One parameter of a tool method: its position, its decorator and its reflected type. */
export interface ToolParameter {
  index: number;
  /** `getWeather, parameter #0`, for messages. */
  where: string;
  param: ParamMetadata;
  /** The `design:paramtypes` entry (undefined past the declared parameters). */
  reflectedType: unknown;
  /** What the source declares about the parameter, when the class went through the source reader. */
  source?: SourceParameter;
  /** The source reader found the parameter's type without a faithful manifest form. */
  unsupported?: UnsupportedType;
}

/**
 * The parameters of a tool method, in order, each with the decorator that fills it. A
 * parameter without a decorator is an argument named as in the source when the class
 * went through the source reader. Throws a {@link DefinitionError} when neither
 * reflection metadata nor source facts exist, a parameter has two decorators, `@Param`
 * and `@Args` are mixed, or (on reaching it, so that problems are reported in parameter
 * order) a parameter has no decorator and no source facts.
 */
export function* toolParameters(
  target: Function,
  className: string,
  methodName: string,
): Generator<ToolParameter, void, undefined> {
  const sourceParams = sourceInfoOf(target)?.methods?.[methodName]?.parameters;
  // Without reflection, the source facts alone type the parameters (plain esbuild drops design:*).
  const types = methodParamTypes(target.prototype, methodName) ?? (sourceParams ? [] : undefined);
  if (types === undefined) {
    throw new DefinitionError(
      "METADATA_MISSING",
      className,
      methodName,
      "decorator metadata (design:paramtypes) is missing, so parameter types cannot be read",
      METADATA_FIX,
    );
  }
  const decorated = getMetadataStorage().paramsOf(target, methodName);
  const byIndex = indexParams(className, methodName, decorated);
  checkParamStyle(className, methodName, decorated);
  const count = Math.max(
    types.length,
    ...decorated.map((param) => param.index + 1),
    ...(sourceParams ?? []).map((param) => param.index + 1),
  );
  for (let index = 0; index < count; index++) {
    const where = `${methodName}, parameter #${index}`;
    const source = sourceParams?.find((candidate) => candidate.index === index);
    const unsupported = unsupportedParameter(target, methodName, index);
    const param =
      byIndex.get(index) ??
      undecoratedParam({ target, className, methodName, index, where, source, unsupported }, types[index]);
    yield {
      index,
      where,
      param,
      reflectedType: types[index],
      ...(source && { source }),
      ...(unsupported && { unsupported }),
    };
  }
}

interface UndecoratedSite {
  target: Function;
  className: string;
  methodName: string;
  index: number;
  where: string;
  source: SourceParameter | undefined;
  unsupported: UnsupportedType | undefined;
}

/** What fills a parameter without a decorator: an argument named as in the source, when that is all it can be. */
function undecoratedParam(site: UndecoratedSite, reflected: unknown): ParamMetadata {
  const { className, where, source, unsupported } = site;
  if (source) {
    checkNotAnUndecoratedDto(className, where, source.name, reflected);
    return implicitParam(site.target, site.methodName, site.index);
  }
  if (unsupported) {
    const name = /\(([^)]*)\)/.exec(unsupported.member)?.[1] ?? "name";
    throw unsupportedTypeError(className, `${where} "${name}"`, unsupported, `@Param("${name}", …)`);
  }
  throw new DefinitionError(
    "UNDECORATED_PARAMETER",
    className,
    where,
    "the parameter has no decorator, so nothing would fill it",
    "decorate it with @Param(name), @Args(), @Ctx() or @Credential(name), or remove it; undecorated " +
      "parameters are arguments named as in the source when built and run with the executa source " +
      "reader (executa build, executa dev, the executa vitest plugin in tests)",
  );
}

/**
 * An undecorated parameter typed with a class is refused rather than guessed at: it reads
 * like a DTO (`search(args: SearchArgs)`), whose fields the author means as the tool's
 * arguments, yet without `@Args()` it would be one object argument named after the
 * parameter. Interfaces and type aliases (reflected as `Object`) stay object arguments.
 */
function checkNotAnUndecoratedDto(className: string, where: string, name: string, reflected: unknown): void {
  const kind = classifyReflectedType(reflected);
  if (kind.kind !== "class") return;
  const dto = kind.class.name || "a class";
  throw new DefinitionError(
    "UNDECORATED_PARAMETER",
    className,
    `${where} "${name}"`,
    `the parameter is typed with the class ${dto} but has no decorator, so it is unclear whether ` +
      `${dto}'s fields are the tool's arguments or "${name}" is one object argument`,
    `add @Args() to take ${dto}'s fields as the tool's arguments (the usual DTO style), or ` +
      `@Param("${name}") to take one object argument named "${name}"`,
  );
}

/** An undecorated parameter the source names: an argument, as if it had `@Param()`. */
function implicitParam(target: Function, methodName: string, index: number): ParamMetadata {
  return { target, methodName, index, source: { kind: "param", name: undefined, options: {} } };
}

function indexParams(
  className: string,
  methodName: string,
  decorated: readonly ParamMetadata[],
): Map<number, ParamMetadata> {
  const byIndex = new Map<number, ParamMetadata>();
  for (const param of decorated) {
    if (byIndex.has(param.index)) {
      throw new DefinitionError(
        "DECORATOR_REPEATED",
        className,
        `${methodName}, parameter #${param.index}`,
        "the parameter has two parameter decorators",
        "keep one of them (@Param, @Args, @Ctx, @Credential or a custom one)",
      );
    }
    byIndex.set(param.index, param);
  }
  return byIndex;
}

/** A tool takes either one `@Param` per argument or one `@Args()` DTO holding them all. */
function checkParamStyle(className: string, methodName: string, decorated: readonly ParamMetadata[]): void {
  const argsCount = decorated.filter((param) => param.source.kind === "args").length;
  if (argsCount > 0 && decorated.some((param) => param.source.kind === "param")) {
    throw new DefinitionError(
      "MIXED_PARAM_STYLE",
      className,
      methodName,
      "the method mixes @Param and @Args",
      "use either @Param for each argument or one @Args() DTO holding all of them",
    );
  }
  if (argsCount > 1) {
    throw new DefinitionError(
      "MIXED_PARAM_STYLE",
      className,
      methodName,
      "the method has more than one @Args()",
      "use one @Args() DTO holding all arguments",
    );
  }
}
