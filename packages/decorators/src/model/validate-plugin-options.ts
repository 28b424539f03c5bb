import type { CredentialSpec } from "@executa/core";
import { isPlainObject } from "../binding/sanitize.js";
import { InvalidOptionError } from "../errors/invalid-option-error.js";
import { MissingDescriptionError } from "../errors/missing-description-error.js";
import type { PluginOptions } from "../options/plugin-options.js";
import type { PluginInfo } from "./types.js";

/** Lowercase kebab/snake label: `weather`, `my-tool`, `pdf_tools2`. */
export const PLUGIN_NAME = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;
/** SemVer 2.0.0 (semver.org's recommended expression). */
export const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const CREDENTIAL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TEXT_FIELDS = ["display_name", "author", "homepage", "icon", "category", "license"] as const;

/**
 * Checks `@Plugin` options and returns the manifest-level fields, copying only what the
 * spec names (unknown keys, e.g. in credentials, are dropped rather than put on the wire).
 */
export function validatePluginOptions(className: string, options: PluginOptions): PluginInfo {
  const fail = (field: string, problem: string, fix: string) =>
    new InvalidOptionError(className, `@Plugin({ ${field} })`, problem, fix);
  if (!isPlainObject(options))
    throw fail("…", "the options are not an object", "pass @Plugin({ name, version, description })");

  if (typeof options.name !== "string" || !PLUGIN_NAME.test(options.name)) {
    throw fail(
      "name",
      `name ${JSON.stringify(options.name)} is not a lowercase kebab/snake label`,
      `use lowercase letters, digits, "-" or "_", starting with a letter, e.g. "my-tool"`,
    );
  }
  if (typeof options.version !== "string" || !SEMVER.test(options.version)) {
    throw fail(
      "version",
      `version ${JSON.stringify(options.version)} is not SemVer`,
      `use MAJOR.MINOR.PATCH, e.g. "1.0.0"`,
    );
  }
  if (typeof options.description !== "string" || options.description.trim() === "") {
    throw new MissingDescriptionError(
      className,
      "@Plugin({ description })",
      "the plugin has no description",
      "add description: a one-paragraph summary of what the plugin does",
    );
  }
  const info: PluginInfo = { name: options.name, version: options.version, description: options.description };
  for (const field of TEXT_FIELDS) {
    const value = options[field];
    if (value === undefined) continue;
    if (typeof value !== "string" || value === "")
      throw fail(field, `${field} is not a non-empty string`, `give ${field} as text, or leave it out`);
    info[field] = value;
  }
  if (options.credentials !== undefined) info.credentials = credentials(options.credentials, fail);
  if (options.runtime !== undefined) {
    if (!isPlainObject(options.runtime))
      throw fail(
        "runtime",
        "runtime is not an object",
        'give hints like { type: "node", min_version: "20" }',
      );
    info.runtime = structuredClone(options.runtime);
  }
  if (options.host_capabilities !== undefined) {
    const list = options.host_capabilities;
    if (!Array.isArray(list) || list.some((value) => typeof value !== "string" || value === "")) {
      throw fail(
        "host_capabilities",
        "host_capabilities is not a list of strings",
        'list capabilities, e.g. ["llm.sample", "aps.kv"]',
      );
    }
    if (new Set(list).size !== list.length)
      throw fail("host_capabilities", "a capability is listed twice", "list each once");
    info.host_capabilities = [...list];
  }
  if (options.server !== undefined && !isPlainObject(options.server)) {
    throw fail("server", "server is not an object", "give server options like { concurrency: 4 }");
  }
  return info;
}

function credentials(
  list: unknown,
  fail: (field: string, problem: string, fix: string) => Error,
): CredentialSpec[] {
  if (!Array.isArray(list))
    throw fail(
      "credentials",
      "credentials is not a list",
      'list them: [{ name: "API_KEY", description: "…" }]',
    );
  const seen = new Set<string>();
  return list.map((entry: unknown) => {
    if (!isPlainObject(entry) || typeof entry.name !== "string" || !CREDENTIAL_NAME.test(entry.name)) {
      throw fail(
        "credentials",
        `credential ${JSON.stringify(isPlainObject(entry) ? entry.name : entry)} has no valid name`,
        "name each credential like an environment variable, e.g. OPENWEATHER_API_KEY (local runs read it from the environment)",
      );
    }
    if (seen.has(entry.name))
      throw fail("credentials", `credential ${entry.name} is declared twice`, "declare it once");
    seen.add(entry.name);
    const spec: CredentialSpec = { name: entry.name };
    // The spec's order: name, display_name, description, required, sensitive, default.
    for (const key of ["display_name", "description", "required", "sensitive", "default"] as const) {
      const value = entry[key];
      if (value === undefined) continue;
      const kind = key === "required" || key === "sensitive" ? "boolean" : "string";
      if (typeof value !== kind) {
        throw fail(
          "credentials",
          `credential ${entry.name}: ${key} is not a ${kind}`,
          `give ${key} as a ${kind}`,
        );
      }
      (spec as unknown as Record<string, unknown>)[key] = value;
    }
    return spec;
  });
}
