/**
 * Validates a `describe` answer against the manifest tables of the protocol spec
 * (manifest fields, tool definition, parameter schema) and the v2 additions
 * (`host_capabilities`, credential `default`).
 */
import { HOST_CAPABILITY_NAMES } from "@executa/core";

/** One thing wrong with a manifest. */
export interface ManifestIssue {
  /** Where, e.g. `tools[1].parameters[0].required`. */
  path: string;
  message: string;
  /** `error`: the spec is broken (FAIL); `warning`: legal but likely to hurt (WARN). */
  severity: "error" | "warning";
}

/** The six parameter types the spec supports. */
export const PARAMETER_TYPES = ["string", "integer", "number", "boolean", "array", "object"] as const;

/** `host_capabilities` values the v2 notes name (core's capability-family table). */
export const KNOWN_HOST_CAPABILITIES: readonly string[] = HOST_CAPABILITY_NAMES;

/** SemVer 2.0.0 (`MAJOR.MINOR.PATCH`, optional pre-release and build), from semver.org. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
/** "Lowercase kebab/snake label". */
const PLUGIN_NAME = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
/** What LLM function-calling APIs accept as a function name. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const OPTIONAL_STRINGS = ["display_name", "author", "homepage", "icon", "category", "license"] as const;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

class Issues {
  readonly list: ManifestIssue[] = [];
  error(path: string, message: string): void {
    this.list.push({ path, message, severity: "error" });
  }
  warning(path: string, message: string): void {
    this.list.push({ path, message, severity: "warning" });
  }
}

/** Every issue of `manifest`, errors and warnings, in document order. */
export function validateManifest(manifest: unknown): ManifestIssue[] {
  const issues = new Issues();
  if (!isObject(manifest)) {
    issues.error("", `the manifest must be a JSON object, got ${kindOf(manifest)}`);
    return issues.list;
  }
  checkName(manifest.name, issues);
  if (typeof manifest.version !== "string") issues.error("version", "required string (SemVer) is missing");
  else if (!SEMVER.test(manifest.version))
    issues.error("version", `"${manifest.version}" is not SemVer (MAJOR.MINOR.PATCH)`);
  requiredString(manifest, "description", "", issues);
  for (const field of OPTIONAL_STRINGS) optionalString(manifest, field, "", issues);
  checkTools(manifest.tools, issues);
  if (manifest.credentials !== undefined) checkCredentials(manifest.credentials, issues);
  if (manifest.runtime !== undefined && !isObject(manifest.runtime))
    issues.error("runtime", `must be an object, got ${kindOf(manifest.runtime)}`);
  if (manifest.host_capabilities !== undefined) checkHostCapabilities(manifest.host_capabilities, issues);
  return issues.list;
}

function checkName(name: unknown, issues: Issues): void {
  if (typeof name !== "string" || name === "") {
    issues.error("name", "required non-empty string is missing");
  } else if (!PLUGIN_NAME.test(name)) {
    issues.error("name", `"${name}" is not a lowercase kebab/snake label (e.g. "my-tool")`);
  }
}

function checkTools(tools: unknown, issues: Issues): void {
  if (!Array.isArray(tools)) {
    issues.error(
      "tools",
      tools === undefined ? "required list is missing" : `must be a list, got ${kindOf(tools)}`,
    );
    return;
  }
  if (tools.length === 0) issues.error("tools", "must hold at least one tool");
  const seen = new Set<string>();
  tools.forEach((tool, index) => {
    const path = `tools[${index}]`;
    if (!isObject(tool)) {
      issues.error(path, `must be an object, got ${kindOf(tool)}`);
      return;
    }
    if (typeof tool.name !== "string" || tool.name === "") {
      issues.error(`${path}.name`, "required non-empty string is missing");
    } else {
      if (seen.has(tool.name)) issues.error(`${path}.name`, `duplicate tool name "${tool.name}"`);
      seen.add(tool.name);
      if (!TOOL_NAME.test(tool.name))
        issues.warning(
          `${path}.name`,
          `"${tool.name}" is not a safe function name for LLMs ([A-Za-z0-9_-], ≤ 64)`,
        );
    }
    requiredString(tool, "description", path, issues);
    if (tool.timeout !== undefined && !(Number.isInteger(tool.timeout) && (tool.timeout as number) > 0))
      issues.error(
        `${path}.timeout`,
        `must be a positive integer (seconds), got ${JSON.stringify(tool.timeout)}`,
      );
    if (tool.streaming !== undefined && typeof tool.streaming !== "boolean")
      issues.error(`${path}.streaming`, `must be a boolean, got ${kindOf(tool.streaming)}`);
    if (tool.parameters !== undefined) checkParameters(tool.parameters, `${path}.parameters`, issues);
  });
}

function checkParameters(parameters: unknown, path: string, issues: Issues): void {
  if (!Array.isArray(parameters)) {
    issues.error(path, `must be a list, got ${kindOf(parameters)}`);
    return;
  }
  const seen = new Set<string>();
  parameters.forEach((parameter, index) => {
    const at = `${path}[${index}]`;
    if (!isObject(parameter)) {
      issues.error(at, `must be an object, got ${kindOf(parameter)}`);
      return;
    }
    if (typeof parameter.name !== "string" || parameter.name === "") {
      issues.error(`${at}.name`, "required non-empty string is missing");
    } else {
      if (seen.has(parameter.name))
        issues.error(`${at}.name`, `duplicate parameter name "${parameter.name}"`);
      seen.add(parameter.name);
    }
    const type = parameter.type;
    const typed = isParameterType(type);
    if (type === undefined) issues.error(`${at}.type`, "required type is missing");
    else if (!typed)
      issues.error(`${at}.type`, `${JSON.stringify(type)} is not one of ${PARAMETER_TYPES.join(", ")}`);
    if (parameter.description === undefined)
      issues.warning(`${at}.description`, "no description: the LLM has nothing to go on");
    else optionalString(parameter, "description", at, issues);
    if (parameter.required !== undefined && typeof parameter.required !== "boolean")
      issues.error(`${at}.required`, `must be a boolean, got ${JSON.stringify(parameter.required)}`);
    if (parameter.enum !== undefined) {
      if (!Array.isArray(parameter.enum) || parameter.enum.length === 0)
        issues.error(`${at}.enum`, "must be a non-empty list");
      else if (typed)
        parameter.enum.forEach((value, i) => {
          if (!fitsType(value, type))
            issues.warning(`${at}.enum[${i}]`, `${JSON.stringify(value)} is not of type ${type}`);
        });
    }
    if (parameter.default !== undefined && typed && !fitsType(parameter.default, type))
      issues.warning(`${at}.default`, `${JSON.stringify(parameter.default)} is not of type ${type}`);
    checkItems(parameter, type, at, issues);
  });
}

function checkItems(parameter: Json, type: unknown, at: string, issues: Issues): void {
  const { items, items_type: itemsType } = parameter;
  if (items !== undefined) {
    if (!isObject(items))
      issues.error(`${at}.items`, `must be an object like {"type": "string"}, got ${kindOf(items)}`);
    else if (!isParameterType(items.type))
      issues.error(
        `${at}.items.type`,
        `${JSON.stringify(items.type)} is not one of ${PARAMETER_TYPES.join(", ")}`,
      );
  }
  if (itemsType !== undefined && !isParameterType(itemsType))
    issues.error(
      `${at}.items_type`,
      `${JSON.stringify(itemsType)} is not one of ${PARAMETER_TYPES.join(", ")}`,
    );
  if ((items !== undefined || itemsType !== undefined) && type !== "array")
    issues.warning(at, `items / items_type only apply to arrays, but the type is ${JSON.stringify(type)}`);
}

function checkCredentials(credentials: unknown, issues: Issues): void {
  if (!Array.isArray(credentials)) {
    issues.error("credentials", `must be a list, got ${kindOf(credentials)}`);
    return;
  }
  const seen = new Set<string>();
  credentials.forEach((credential, index) => {
    const at = `credentials[${index}]`;
    if (!isObject(credential)) {
      issues.error(at, `must be an object, got ${kindOf(credential)}`);
      return;
    }
    if (typeof credential.name !== "string" || credential.name === "") {
      issues.error(`${at}.name`, "required non-empty string is missing");
    } else {
      if (seen.has(credential.name)) issues.error(`${at}.name`, `duplicate credential "${credential.name}"`);
      seen.add(credential.name);
    }
    for (const field of ["display_name", "description", "default"] as const)
      optionalString(credential, field, at, issues);
    for (const field of ["required", "sensitive"] as const) {
      if (credential[field] !== undefined && typeof credential[field] !== "boolean")
        issues.error(`${at}.${field}`, `must be a boolean, got ${JSON.stringify(credential[field])}`);
    }
  });
}

function checkHostCapabilities(capabilities: unknown, issues: Issues): void {
  if (!Array.isArray(capabilities)) {
    issues.error("host_capabilities", `must be a list of strings, got ${kindOf(capabilities)}`);
    return;
  }
  capabilities.forEach((capability, index) => {
    if (typeof capability !== "string")
      issues.error(`host_capabilities[${index}]`, `must be a string, got ${kindOf(capability)}`);
    else if (!KNOWN_HOST_CAPABILITIES.includes(capability))
      issues.warning(
        `host_capabilities[${index}]`,
        `"${capability}" is not a capability hosts are known to grant`,
      );
  });
}

function requiredString(owner: Json, field: string, at: string, issues: Issues): void {
  const path = at ? `${at}.${field}` : field;
  const value = owner[field];
  if (value === undefined) issues.error(path, "required string is missing");
  else if (typeof value !== "string") issues.error(path, `must be a string, got ${kindOf(value)}`);
  else if (value.trim() === "") issues.warning(path, "is empty");
}

function optionalString(owner: Json, field: string, at: string, issues: Issues): void {
  const value = owner[field];
  if (value !== undefined && typeof value !== "string")
    issues.error(at ? `${at}.${field}` : field, `must be a string, got ${kindOf(value)}`);
}

function isParameterType(value: unknown): value is (typeof PARAMETER_TYPES)[number] {
  return typeof value === "string" && (PARAMETER_TYPES as readonly string[]).includes(value);
}

function fitsType(value: unknown, type: (typeof PARAMETER_TYPES)[number]): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
  }
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}
