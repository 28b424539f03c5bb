import { InvalidParamsError } from "@executa/core";
import { plainToInstance } from "class-transformer";
import { validate } from "class-validator";
import { flattenValidationErrors } from "./flatten-validation-errors.js";

/**
 * Turns checked argument values into an instance of the DTO class and validates it:
 * class-transformer `plainToInstance` (implicit conversion, `@Type` for nesting), then
 * class-validator `validate` with `whitelist` and `forbidNonWhitelisted`, so a property
 * without any decorator is an error rather than silently passed on. Failures become an
 * `InvalidParamsError` whose issues carry `parent.child` paths.
 */
export async function toValidatedDto(
  dto: Function,
  values: Record<string, unknown>,
  tool: string,
): Promise<object> {
  const instance = plainToInstance(dto as new () => object, values, { enableImplicitConversion: true });
  const errors = await validate(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  if (errors.length === 0) return instance;
  const issues = flattenValidationErrors(errors);
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
  throw new InvalidParamsError(`Invalid arguments for tool "${tool}": ${summary}`, issues);
}
