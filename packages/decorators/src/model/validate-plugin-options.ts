import {
  CREDENTIAL_NAME_PATTERN,
  type CredentialSpec,
  MANIFEST_TEXT_FIELDS,
  PLUGIN_NAME_PATTERN,
  SEMVER_PATTERN,
} from "@executa/core";
import { isPlainObject } from "../binding/sanitize.js";
import { DefinitionError, type DefinitionErrorCode } from "../errors/definition-error.js";
import { closestName } from "../naming/closest-name.js";
import { PLUGIN_OPTION_KEYS } from "../options/option-keys.js";
import type { PluginOptions } from "../options/plugin-options.js";
import { checkOptionKeys } from "./check-option-keys.js";
import type { PluginInfo } from "./types.js";

/** Builds the error for a bad `@Plugin` option: the field, what is wrong, the fix. */
type Fail = (field: string, problem: string, fix: string, code?: DefinitionErrorCode) => DefinitionError;

/** The credential fields the spec names, in its order (after `name`), with their types. */
const CREDENTIAL_FIELDS = [
  ["display_name", "string"],
  ["description", "string"],
  ["required", "boolean"],
  ["sensitive", "boolean"],
  ["default", "string"],
] as const;

/**
 * Checks `@Plugin` options and returns the manifest-level fields, copying only what the
 * spec names (unknown keys, e.g. in credentials, are dropped rather than put on the wire).
 * Names and versions follow the manifest rules of `@executa/core`. Without a `version`
 * option the version is `packageVersion` (the plugin package's `package.json`, as the
 * source reader recorded it).
 */
export function validatePluginOptions(
  className: string,
  options: PluginOptions,
  documented?: string,
  packageVersion?: string,
): PluginInfo {
  const fail: Fail = (field, problem, fix, code = "INVALID_OPTION") =>
    new DefinitionError(code, className, `@Plugin({ ${field} })`, problem, fix);
  if (!isPlainObject(options))
    throw fail("…", "the options are not an object", "pass @Plugin({ name, version, description })");
  checkOptionKeys(options, PLUGIN_OPTION_KEYS, { className, member: "", decorator: "@Plugin()" });
  const info = identity(
    className,
    { ...options, version: options.version ?? packageVersion },
    documented,
    fail,
  );
  copyTextFields(options, info, fail);
  if (options.credentials !== undefined) info.credentials = credentials(options.credentials, fail);
  if (options.runtime !== undefined) info.runtime = runtime(options.runtime, fail);
  if (options.host_capabilities !== undefined)
    info.host_capabilities = hostCapabilities(options.host_capabilities, fail);
  if (options.server !== undefined && !isPlainObject(options.server)) {
    throw fail("server", "server is not an object", "give server options like { concurrency: 4 }");
  }
  return info;
}

/** `name`, `version` and `description`: the fields every manifest has. */
function identity(
  className: string,
  options: PluginOptions,
  documented: string | undefined,
  fail: Fail,
): PluginInfo {
  if (typeof options.name !== "string" || !PLUGIN_NAME_PATTERN.test(options.name)) {
    throw fail(
      "name",
      `name ${JSON.stringify(options.name)} is not a lowercase kebab/snake label`,
      `use lowercase letters, digits, "-" or "_", starting with a letter, e.g. "my-tool"`,
    );
  }
  if (options.version === undefined) {
    throw fail(
      "version",
      "the plugin has no version",
      'set "version" in package.json and build and run with the executa source reader, or give @Plugin({ version: "1.0.0" })',
    );
  }
  if (typeof options.version !== "string" || !SEMVER_PATTERN.test(options.version)) {
    throw fail(
      "version",
      `version ${JSON.stringify(options.version)} is not SemVer`,
      `use MAJOR.MINOR.PATCH, e.g. "1.0.0"`,
    );
  }
  const description = options.description ?? documented;
  if (typeof description !== "string" || description.trim() === "") {
    throw new DefinitionError(
      "DESCRIPTION_MISSING",
      className,
      "@Plugin({ description })",
      "the plugin has no description",
      "add description (a one-paragraph summary of what the plugin does), or write it as the class's doc comment and build and run with the executa source reader",
    );
  }
  return { name: options.name, version: options.version as string, description };
}

/** The optional free-text fields (`display_name`, `author`, …), each non-empty text when given. */
function copyTextFields(options: PluginOptions, info: PluginInfo, fail: Fail): void {
  for (const field of MANIFEST_TEXT_FIELDS) {
    const value = options[field];
    if (value === undefined) continue;
    if (typeof value !== "string" || value === "")
      throw fail(field, `${field} is not a non-empty string`, `give ${field} as text, or leave it out`);
    info[field] = value;
  }
}

function runtime(value: unknown, fail: Fail): PluginInfo["runtime"] {
  if (!isPlainObject(value))
    throw fail("runtime", "runtime is not an object", 'give hints like { type: "node", min_version: "20" }');
  return structuredClone(value);
}

function hostCapabilities(list: unknown, fail: Fail): string[] {
  if (!Array.isArray(list) || list.some((value) => typeof value !== "string" || value === "")) {
    throw fail(
      "host_capabilities",
      "host_capabilities is not a list of strings",
      'list capabilities, e.g. ["llm.sample", "aps.kv"]',
    );
  }
  if (new Set(list).size !== list.length)
    throw fail("host_capabilities", "a capability is listed twice", "list each once");
  return [...list];
}

function credentials(list: unknown, fail: Fail): CredentialSpec[] {
  if (!Array.isArray(list))
    throw fail(
      "credentials",
      "credentials is not a list",
      'list them: [{ name: "API_KEY", description: "…" }]',
    );
  const seen = new Set<string>();
  return list.map((entry: unknown) => {
    const name = credentialName(entry, fail);
    if (seen.has(name)) throw fail("credentials", `credential ${name} is declared twice`, "declare it once");
    seen.add(name);
    checkCredentialKeys(name, entry as Record<string, unknown>, fail);
    return credentialSpec(name, entry as Record<string, unknown>, fail);
  });
}

/** A misspelled credential field (`displayName`) would be dropped from the manifest unnoticed. */
function checkCredentialKeys(name: string, entry: Record<string, unknown>, fail: Fail): void {
  const known = ["name", ...CREDENTIAL_FIELDS.map(([key]) => key)];
  const unknown = Object.keys(entry).find((key) => !known.includes(key));
  if (unknown === undefined) return;
  const closest = closestName(unknown, known);
  throw fail(
    "credentials",
    `credential ${name} has no field "${unknown}"`,
    closest !== undefined
      ? `did you mean "${closest}"? (fields: ${known.join(", ")})`
      : `remove it; the fields are ${known.join(", ")}`,
    "UNKNOWN_OPTION",
  );
}

/** A credential's name: like an environment variable, since local runs read credentials from the environment. */
function credentialName(entry: unknown, fail: Fail): string {
  if (!isPlainObject(entry) || typeof entry.name !== "string" || !CREDENTIAL_NAME_PATTERN.test(entry.name)) {
    throw fail(
      "credentials",
      `credential ${JSON.stringify(isPlainObject(entry) ? entry.name : entry)} has no valid name`,
      "name each credential like an environment variable, e.g. OPENWEATHER_API_KEY (local runs read it from the environment)",
    );
  }
  return entry.name;
}

/** The spec's fields of one credential, checked for their types (unknown keys were rejected before). */
function credentialSpec(name: string, entry: Record<string, unknown>, fail: Fail): CredentialSpec {
  const spec: Record<string, unknown> = { name };
  for (const [key, kind] of CREDENTIAL_FIELDS) {
    const value = entry[key];
    if (value === undefined) continue;
    if (typeof value !== kind)
      throw fail("credentials", `credential ${name}: ${key} is not a ${kind}`, `give ${key} as a ${kind}`);
    spec[key] = value;
  }
  return spec as unknown as CredentialSpec;
}
