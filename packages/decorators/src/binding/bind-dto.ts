import { InvalidParamsError } from "@executa/core";
import { formatOfConstructor } from "@executa/core/internal";
import { plainToInstance } from "class-transformer";
import {
  getMetadataStorage,
  type ValidationError,
  type ValidatorOptions,
  validate,
  validateSync,
} from "class-validator";
import { andThen } from "./and-then.js";
import { flattenValidationErrors } from "./flatten-validation-errors.js";
import { summarizeIssues } from "./invalid-arguments.js";

const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
};

/**
 * Turns checked argument values into an instance of the DTO class and validates it:
 * class-transformer `plainToInstance` (implicit conversion, `@Type` for nesting), then
 * class-validator with `whitelist` and `forbidNonWhitelisted`, so a property without
 * any decorator is an error rather than silently passed on. Failures become an
 * `InvalidParamsError` whose issues carry `parent.child` paths.
 *
 * Validation is synchronous (`validateSync`) while no registered constraint is declared
 * `async` — class-validator's own contract for constraints that return a promise — and
 * asynchronous (`validate`) once one is, whichever DTO it sits on.
 */
export function toValidatedDto(
  dto: Function,
  values: Record<string, unknown>,
  tool: string,
): object | Promise<object> {
  const { plain, formatted } = splitFormatted(values);
  const instance = plainToInstance(dto as new () => object, plain, { enableImplicitConversion: true });
  Object.assign(instance, formatted);
  const errors = hasAsyncConstraints()
    ? validate(instance, VALIDATOR_OPTIONS)
    : validateSync(instance, VALIDATOR_OPTIONS);
  return andThen(errors, (found) => checked(instance, found, tool));
}

/**
 * The values already decoded to a format's class (a `URL`, a `Date`, or a list of them),
 * apart from the rest: class-transformer would rebuild them from their reflected type with
 * `new Type()` and no argument, which a `URL` refuses. They are set on the instance as they are.
 */
function splitFormatted(values: Record<string, unknown>) {
  const plain: Record<string, unknown> = {};
  const formatted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const decoded = Array.isArray(value) ? value.length > 0 && value.every(isFormatted) : isFormatted(value);
    (decoded ? formatted : plain)[key] = value;
  }
  return { plain, formatted };
}

function isFormatted(value: unknown): boolean {
  return typeof value === "object" && value !== null && formatOfConstructor(value.constructor) !== undefined;
}

function checked(instance: object, errors: ValidationError[], tool: string): object {
  if (errors.length === 0) return instance;
  const issues = flattenValidationErrors(errors);
  throw new InvalidParamsError(`Invalid arguments for tool "${tool}": ${summarizeIssues(issues)}`, issues);
}

let asyncConstraints = { registered: -1, any: false };

/** Whether any constraint class registered with class-validator is asynchronous. */
function hasAsyncConstraints(): boolean {
  // Constraints register as classes load, possibly after the first invoke: the answer is
  // kept only while the number of registered constraint classes stays the same.
  const { constraintMetadatas } = getMetadataStorage() as unknown as {
    constraintMetadatas?: Map<unknown, readonly { async: boolean }[]>;
  };
  // A field the typings call private: should a class-validator release rename it,
  // validate asynchronously, which is always correct.
  if (!(constraintMetadatas instanceof Map)) return true;
  if (constraintMetadatas.size !== asyncConstraints.registered) {
    let any = false;
    for (const list of constraintMetadatas.values()) any ||= list.some((constraint) => constraint.async);
    asyncConstraints = { registered: constraintMetadatas.size, any };
  }
  return asyncConstraints.any;
}
