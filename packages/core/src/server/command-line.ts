import { MCP_HTTP_ALLOWED_HOSTS_ENV, MCP_HTTP_FLAG, MCP_HTTP_TOKEN_ENV } from "../mcp/http/http-address.js";
import type { Manifest } from "../wire/manifest.js";

/** The flags a plugin binary answers itself, instead of serving. */
const HELP_FLAGS = ["--help", "-h"];
const VERSION_FLAGS = ["--version", "-V"];

/**
 * What a plugin process prints instead of serving when asked for `--help` (or `-h`) or
 * `--version` (or `-V`), undefined when neither was asked: a person who runs the binary by
 * hand would otherwise face a server silently waiting for frames on stdin.
 */
export function commandLineAnswer(
  manifest: Manifest,
  argv: readonly string[] = process.argv,
): string | undefined {
  const args = argv.slice(1);
  if (args.some((arg) => HELP_FLAGS.includes(arg))) return helpText(manifest);
  if (args.some((arg) => VERSION_FLAGS.includes(arg))) return `${manifest.name} ${manifest.version}\n`;
  return undefined;
}

function helpText(manifest: Manifest): string {
  const name = manifest.name;
  const credentials = manifest.credentials ?? [];
  return [
    `${name} ${manifest.version}: ${firstLine(manifest.description)}`,
    "",
    "An Executa plugin: an agent host or an MCP client starts it and speaks JSON-RPC over its",
    "stdin and stdout (the protocol is recognized from the first message).",
    "",
    "Usage:",
    ...columns([
      [name, "serve on stdio (Executa or MCP)"],
      [`${name} --mcp`, "serve MCP on stdio"],
      [`${name} ${MCP_HTTP_FLAG} [HOST:]PORT`, "serve MCP over Streamable HTTP (on 127.0.0.1 unless HOST)"],
      [`${name} --help | --version`, "this text | the name and version"],
    ]),
    "",
    "Environment:",
    ...columns([
      ["EXECUTA_PROTOCOL=mcp|executa", "the protocol to speak on stdio"],
      [MCP_HTTP_TOKEN_ENV, "the bearer token HTTP clients must send"],
      [MCP_HTTP_ALLOWED_HOSTS_ENV, "host names accepted besides localhost, comma-separated"],
      ...credentials.map((credential): [string, string] => [
        credential.name,
        `${credential.required ? "(required) " : ""}${firstLine(credential.description)}`,
      ]),
    ]),
    "",
    "Tools:",
    ...columns(manifest.tools.map((tool): [string, string] => [tool.name, firstLine(tool.description)])),
    "",
  ].join("\n");
}

/** Two columns, the first padded to its widest entry. */
function columns(rows: readonly [string, string][]): string[] {
  const width = Math.max(0, ...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd());
}

function firstLine(text: string | undefined): string {
  return (text ?? "").split("\n")[0]?.trim() ?? "";
}
