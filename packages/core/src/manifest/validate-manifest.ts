/**
 * Validates a `describe` answer against the manifest tables of the protocol spec
 * (manifest fields, tool definition, parameter schema) and the v2 additions
 * (`host_capabilities`, credential `default`).
 */
import { HOST_CAPABILITY_NAMES } from "../wire/capability-families.js";
import {
  eachObject,
  IssueList,
  isObject,
  kindOf,
  type ManifestIssue,
  optionalBoolean,
  optionalString,
  requiredString,
  uniqueName,
} from "./manifest-issues.js";
import { MANIFEST_TEXT_FIELDS, PLUGIN_NAME_PATTERN, SEMVER_PATTERN } from "./rules.js";
import { checkTools } from "./validate-tools.js";

/**
 * Every issue of `manifest`, errors and warnings, in document order. An `error` breaks
 * the spec (a host may refuse the plugin); a `warning` is legal but likely to hurt (an
 * undescribed parameter, a tool name LLM APIs refuse, a capability no host grants).
 */
export function validateManifest(manifest: unknown): ManifestIssue[] {
  const issues = new IssueList();
  if (!isObject(manifest)) {
    issues.error("", `the manifest must be a JSON object, got ${kindOf(manifest)}`);
    return issues.list;
  }
  checkName(manifest.name, issues);
  checkVersion(manifest.version, issues);
  requiredString(manifest, "description", "", issues);
  for (const field of MANIFEST_TEXT_FIELDS) optionalString(manifest, field, "", issues);
  checkTools(manifest.tools, issues);
  if (manifest.credentials !== undefined) checkCredentials(manifest.credentials, issues);
  if (manifest.runtime !== undefined && !isObject(manifest.runtime))
    issues.error("runtime", `must be an object, got ${kindOf(manifest.runtime)}`);
  if (manifest.host_capabilities !== undefined) checkHostCapabilities(manifest.host_capabilities, issues);
  return issues.list;
}

function checkName(name: unknown, issues: IssueList): void {
  if (typeof name !== "string" || name === "") {
    issues.error("name", "required non-empty string is missing");
  } else if (!PLUGIN_NAME_PATTERN.test(name)) {
    issues.error(
      "name",
      `"${name}" is not a lowercase kebab/snake label starting with a letter (e.g. "my-tool")`,
    );
  }
}

function checkVersion(version: unknown, issues: IssueList): void {
  if (typeof version !== "string") issues.error("version", "required string (SemVer) is missing");
  else if (!SEMVER_PATTERN.test(version))
    issues.error("version", `"${version}" is not SemVer (MAJOR.MINOR.PATCH)`);
}

function checkCredentials(credentials: unknown, issues: IssueList): void {
  if (!Array.isArray(credentials)) {
    issues.error("credentials", `must be a list, got ${kindOf(credentials)}`);
    return;
  }
  const seen = new Set<string>();
  eachObject(credentials, "credentials", issues, (credential, at) => {
    uniqueName(credential, at, seen, "credential", issues);
    for (const field of ["display_name", "description", "default"] as const)
      optionalString(credential, field, at, issues);
    for (const field of ["required", "sensitive"] as const) optionalBoolean(credential, field, at, issues);
  });
}

function checkHostCapabilities(capabilities: unknown, issues: IssueList): void {
  if (!Array.isArray(capabilities)) {
    issues.error("host_capabilities", `must be a list of strings, got ${kindOf(capabilities)}`);
    return;
  }
  capabilities.forEach((capability, index) => {
    const path = `host_capabilities[${index}]`;
    if (typeof capability !== "string") issues.error(path, `must be a string, got ${kindOf(capability)}`);
    else if (!(HOST_CAPABILITY_NAMES as readonly string[]).includes(capability))
      issues.warning(path, `"${capability}" is not a capability hosts are known to grant`);
  });
}

export type { ManifestIssue };
