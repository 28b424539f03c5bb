import type { CredentialSpec, Manifest } from "@executa/core";
import { type Paint, paint } from "./format.js";

/** Where an invoke's value of a declared credential comes from, if anywhere. */
type CredentialSource = "given" | "environment" | "default" | "missing";

/**
 * The source core's credential resolution will use for `spec`: a value given to `executa
 * dev` (`--credential`, `.credential`), else the environment variable of the same name
 * (which the plugin inherits, as an MCP client passes it in `env`), else the declared
 * default. An empty value counts as not set.
 */
function credentialSource(
  spec: CredentialSpec,
  given: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
): CredentialSource {
  if (given[spec.name]) return "given";
  if (env[spec.name]) return "environment";
  if (spec.default !== undefined && spec.default !== "") return "default";
  return "missing";
}

/**
 * The manifest's credential declarations, one per line: name, whether it is set (never
 * its value), and the description. Empty when the plugin declares none.
 *
 * @example
 * credentials:
 *   WEATHER_API_KEY (required): set in the environment · Key of the weather service
 */
export function formatCredentials(
  manifest: Manifest,
  given: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>> = process.env,
  p: Paint = paint(false),
): string {
  const declared = manifest.credentials ?? [];
  if (declared.length === 0) return "";
  const lines = declared.map((spec) => {
    const required = spec.required === false ? "" : " (required)";
    const status = statusText(spec, credentialSource(spec, given, env), p);
    const description = spec.description ?? spec.display_name;
    return `  ${p.bold(spec.name)}${required}: ${status}${description ? p.dim(` · ${description}`) : ""}`;
  });
  return `credentials:\n${lines.join("\n")}\n`;
}

function statusText(spec: CredentialSpec, source: CredentialSource, p: Paint): string {
  switch (source) {
    case "given":
      return p.ok("set by --credential");
    case "environment":
      return p.ok("set in the environment");
    case "default":
      return `not set; default ${JSON.stringify(spec.default)}`;
    case "missing":
      return spec.required === false ? "not set" : p.bad("not set");
  }
}
