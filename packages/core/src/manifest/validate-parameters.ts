import {
  eachObject,
  type IssueList,
  isObject,
  type JsonObject,
  kindOf,
  optionalBoolean,
  optionalString,
  uniqueName,
} from "./manifest-issues.js";
import {
  isParameterType,
  PARAMETER_TYPE_NAMES,
  PARAMETER_TYPES,
  type ParameterTypeRules,
  parameterType,
} from "./parameter-types/index.js";

const notAType = (value: unknown) =>
  `${JSON.stringify(value)} is not one of ${PARAMETER_TYPE_NAMES.join(", ")}`;

/** A tool's `parameters`: a list of parameter schemas with unique names and known types. */
export function checkParameters(parameters: unknown, path: string, issues: IssueList): void {
  if (!Array.isArray(parameters)) {
    issues.error(path, `must be a list, got ${kindOf(parameters)}`);
    return;
  }
  const seen = new Set<string>();
  eachObject(parameters, path, issues, (parameter, at) => {
    uniqueName(parameter, at, seen, "parameter name", issues);
    const rules = checkType(parameter.type, at, issues);
    if (parameter.description === undefined)
      issues.warning(`${at}.description`, "no description: the LLM has nothing to go on");
    else optionalString(parameter, "description", at, issues);
    optionalBoolean(parameter, "required", at, issues);
    checkValues(parameter, rules, at, issues);
    checkItems(parameter, at, issues);
    checkTypeSpecificFields(parameter, rules, at, issues);
  });
}

function checkType(type: unknown, at: string, issues: IssueList): ParameterTypeRules | undefined {
  if (type === undefined) issues.error(`${at}.type`, "required type is missing");
  else if (!isParameterType(type)) issues.error(`${at}.type`, notAType(type));
  return parameterType(type);
}

/** `enum` and `default`: warnings for values not of the parameter's type. */
function checkValues(
  parameter: JsonObject,
  rules: ParameterTypeRules | undefined,
  at: string,
  issues: IssueList,
): void {
  const { enum: values, default: fallback } = parameter;
  if (values !== undefined) {
    if (!Array.isArray(values) || values.length === 0) issues.error(`${at}.enum`, "must be a non-empty list");
    else if (rules)
      values.forEach((value, index) => {
        if (!rules.fits(value))
          issues.warning(`${at}.enum[${index}]`, `${JSON.stringify(value)} is not of type ${rules.name}`);
      });
  }
  if (fallback !== undefined && rules && !rules.fits(fallback))
    issues.warning(`${at}.default`, `${JSON.stringify(fallback)} is not of type ${rules.name}`);
}

/** The element type of an array, in either spelling: `items: {"type": …}` or `items_type`. */
function checkItems(parameter: JsonObject, at: string, issues: IssueList): void {
  const { items, items_type: itemsType } = parameter;
  if (items !== undefined) {
    if (!isObject(items))
      issues.error(`${at}.items`, `must be an object like {"type": "string"}, got ${kindOf(items)}`);
    else if (!isParameterType(items.type)) issues.error(`${at}.items.type`, notAType(items.type));
  }
  if (itemsType !== undefined && !isParameterType(itemsType))
    issues.error(`${at}.items_type`, notAType(itemsType));
}

/** A warning for fields that belong to another type's manifest form (`items` on a `string`). */
function checkTypeSpecificFields(
  parameter: JsonObject,
  rules: ParameterTypeRules | undefined,
  at: string,
  issues: IssueList,
): void {
  for (const owner of Object.values(PARAMETER_TYPES)) {
    if (owner === rules) continue;
    if (owner.schemaFields.some((field) => parameter[field] !== undefined))
      issues.warning(
        at,
        `${owner.schemaFields.join(" / ")} only apply to ${owner.name}s, but the type is ${JSON.stringify(parameter.type)}`,
      );
  }
}
