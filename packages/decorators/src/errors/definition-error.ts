import { CodedError } from "@executa/core";
import { errorBrand } from "@executa/core/internal";

/**
 * What is wrong with a decorated class that cannot become a plugin, one code per case.
 * Codes are stable: programs (the bundler, tests) match on them, never on message text.
 *
 * - `NOT_A_CLASS`: `buildPlugin` / `serve` / `manifestOf` was given something that is not a class.
 * - `PLUGIN_DECORATOR_MISSING`: the class has no `@Plugin`.
 * - `NO_TOOLS`: the `@Plugin` class (with its base classes) has no `@Tool` method.
 * - `DECORATOR_MISPLACED`: a decorator where it cannot work: a static member, a constructor
 *   parameter, a symbol-named member, something that is not a method, a hook on a `@Tool`
 *   method, parameter decorators on a method without `@Tool`, `@Tool` on a method the
 *   source declares `private` or `protected`.
 * - `DECORATOR_REPEATED`: a decorator used twice where one is allowed: `@Plugin` or `@Tool`
 *   twice, two parameter decorators on one parameter, one hook kind on two methods.
 * - `TOOL_OPTIONS_MISSING`: `@Tool()` without its options object (and no doc comment read
 *   by the executa source reader).
 * - `DESCRIPTION_MISSING`: a tool or the plugin has no (or an empty) description, neither
 *   in the options nor as a doc comment read by the source reader.
 * - `INVALID_OPTION`: a decorator option with a bad value (plugin name or version, tool name,
 *   timeout, argument `type`, `items`, `enum`, `default`, `required`, …).
 * - `UNKNOWN_OPTION`: an options key the decorator does not have (a misspelling such as
 *   `hostCapabilities` for `host_capabilities`); the message names the closest valid key.
 * - `UNKNOWN_DOC_TAG`: a doc-comment tag on a parameter, a DTO field or a property inside
 *   one that the schema does not know (`@min 0` for `@minimum 0`); the message names the
 *   closest tag. Documentation tags (`@remarks`, `@example`, `@deprecated`, …) are accepted.
 * - `ARGUMENT_NAME_MISSING`: `@Param()` without a name, and no source facts naming it.
 * - `INVALID_ARGUMENT_NAME`: an argument name the protocol does not accept, or one that is
 *   stripped from arguments (`__proto__`, `constructor`, `prototype`).
 * - `DUPLICATE_TOOL_NAME`: two tools of the class share a name.
 * - `DUPLICATE_ARGUMENT_NAME`: two `@Param`s of one tool share a name.
 * - `METADATA_MISSING`: decorator metadata (`design:paramtypes` / `design:type`) is absent:
 *   compiled without `emitDecoratorMetadata`, or the metadata API was installed too late.
 * - `UNINFERABLE_TYPE`: reflection cannot tell an argument's type (`Object`: a union, an
 *   interface, `any`, …) and no explicit `type` is given; or `@Args()` is not typed with a class.
 * - `TYPE_CONFLICT`: declared types disagree: an explicit or validator type against the
 *   TypeScript type, or two type validators on one DTO property.
 * - `DTO_WITHOUT_FIELDS`: the `@Args()` class describes no argument: no class-validator
 *   decorator or `@Field()`, and either the source reader read it and found no public
 *   instance property, or it never read it (the message says which).
 * - `MIXED_PARAM_STYLE`: one method mixes `@Param` and `@Args`, or uses `@Args` twice.
 * - `UNDECORATED_PARAMETER`: a tool method parameter that no decorator fills (and that the
 *   source reader did not name), or an undecorated one typed with a class: `@Args()` (its
 *   fields are the arguments) or `@Param(name)` (one object argument) must say which.
 * - `NESTED_CLASS_UNKNOWN`: `@ValidateNested()` on a DTO property whose class nothing names
 *   (no `design:type` of a class, no class-transformer `@Type`, no source facts): its values
 *   could neither become instances nor be checked.
 * - `UNDECORATED_FIELD`: a DTO property with an initializer but no decorator, without the
 *   source reader (class-validator's whitelist would reject every invoke).
 * - `UNSUPPORTED_TYPE`: the source reader found a parameter's or DTO property's TypeScript
 *   type without a faithful manifest form (a function, a class instance other than `Date` or `URL`,
 *   `bigint`, a generic, a union of different types, `any`) and no explicit `type` overrides it.
 * - `SCHEMA_UNSUPPORTED`: the Standard Schema of an `@Args(schema)` parameter cannot become
 *   the tool's input: it lacks Standard JSON Schema (valibot without `toStandardJsonSchema`),
 *   its library cannot write it as JSON Schema, its values are not objects, or its JSON
 *   Schema uses a keyword or `$ref` outside the closed subset (the message names it).
 * - `RULE_CONFLICT`: one argument's bound written as a rule twice with different values: a
 *   class-validator rule (`@Min(5)`) and a doc-comment tag (`@minimum 1`). An explicit option
 *   is the override and wins.
 * - `SOURCE_MISMATCH`: reflection (`design:paramtypes` / `design:type`) contradicts the
 *   source facts recorded at build time for a parameter or DTO property (e.g. `Number`
 *   against `string`: stale facts, or a misread type) and no explicit `type` decides.
 * - `UNDECLARED_CREDENTIAL`: `@Credential(name)` for a credential `@Plugin({ credentials })`
 *   does not declare.
 * - `INSTANCE_FAILED`: the plugin or a DTO instance cannot be created (constructor needs
 *   arguments or throws, the factory throws or returns no object or the wrong object).
 * - `MANIFEST_INVALID`: the generated manifest breaks a rule of core's `validateManifest`
 *   that no decorator check caught first (a gap between the two, reported at startup).
 * - `SERVED_TWICE`: a second `serve()` on the process's stdin and stdout: both servers
 *   would read every request, and the second one's answers could never reach the host.
 */
export type DefinitionErrorCode =
  | "NOT_A_CLASS"
  | "PLUGIN_DECORATOR_MISSING"
  | "NO_TOOLS"
  | "DECORATOR_MISPLACED"
  | "DECORATOR_REPEATED"
  | "TOOL_OPTIONS_MISSING"
  | "DESCRIPTION_MISSING"
  | "INVALID_OPTION"
  | "UNKNOWN_OPTION"
  | "UNKNOWN_DOC_TAG"
  | "ARGUMENT_NAME_MISSING"
  | "INVALID_ARGUMENT_NAME"
  | "DUPLICATE_TOOL_NAME"
  | "DUPLICATE_ARGUMENT_NAME"
  | "METADATA_MISSING"
  | "UNINFERABLE_TYPE"
  | "TYPE_CONFLICT"
  | "DTO_WITHOUT_FIELDS"
  | "MIXED_PARAM_STYLE"
  | "UNDECORATED_PARAMETER"
  | "NESTED_CLASS_UNKNOWN"
  | "UNDECORATED_FIELD"
  | "UNSUPPORTED_TYPE"
  | "RULE_CONFLICT"
  | "SCHEMA_UNSUPPORTED"
  | "SOURCE_MISMATCH"
  | "UNDECLARED_CREDENTIAL"
  | "INSTANCE_FAILED"
  | "MANIFEST_INVALID"
  | "SERVED_TWICE";

/**
 * The one startup error of `@executa/decorators`: a decorated class that cannot become a
 * plugin. `code` says which case (see {@link DefinitionErrorCode}); like a compile error,
 * the message names the class, the member and the fix, e.g.
 *
 * ```text
 * Weather.getWeather, parameter #0 "city": cannot infer the type: reflection says Object (…)
 *   Fix: declare it as string, number, boolean or an array (…)
 * ```
 */
export class DefinitionError extends CodedError<DefinitionErrorCode> {
  /** The process-wide identity of this class: one from another copy of the package is one too. */
  static override readonly brand: symbol = errorBrand("DefinitionError");

  override readonly name = "DefinitionError";
  /**
   * @param code - which case this is; stable, for programs to match on.
   * @param problem - what is wrong.
   * @param fix - how to fix it.
   */
  constructor(
    code: DefinitionErrorCode,
    /** The class the problem is in (`Weather`). */
    readonly className: string,
    /** The member, e.g. `getWeather, parameter #0 "city"`, or `@Plugin({ version })` for class options; "" for the class itself. */
    readonly member: string,
    problem: string,
    fix: string,
  ) {
    super(code, problem, fix, { subject: `${className}${locate(member)}` });
  }
}

function locate(member: string): string {
  if (member === "") return "";
  return member.startsWith("@") ? ` ${member}` : `.${member}`;
}
