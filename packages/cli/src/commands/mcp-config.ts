import { existsSync, statSync } from "node:fs";
import { extname, resolve } from "node:path";
import type { Manifest } from "@executa/core";
import { spawnPlugin } from "@executa/host";
import type { Command } from "commander";
import type { CliIO } from "../cli-io.js";

/** How an MCP client launches a plugin: its `command` and `args` (with `--mcp`). */
export interface PluginLaunch {
  command: string;
  args: string[];
}

/** One server entry of an MCP client's `mcpServers`. */
export interface McpServerEntry extends PluginLaunch {
  env: Record<string, string>;
}

const SCRIPT_EXTENSIONS = new Set([".js", ".cjs", ".mjs"]);
const DESCRIBE_TIMEOUT_MS = 15_000;

/**
 * The plugin an operand names: a built binary or bundle (`.js`, `.cjs`, `.mjs`, run by
 * this node), or a plugin name looked up as `dist/NAME` then `dist/NAME.cjs`.
 *
 * @throws Error naming the paths tried.
 */
export function resolvePluginLaunch(operand: string, cwd = process.cwd()): PluginLaunch {
  const candidates = [operand, `dist/${operand}`, `dist/${operand}.cjs`].map((path) => resolve(cwd, path));
  const found = candidates.find((path) => existsSync(path) && statSync(path).isFile());
  if (!found) {
    throw new Error(`no plugin binary or bundle for "${operand}"; tried ${candidates.join(", ")}`);
  }
  return SCRIPT_EXTENSIONS.has(extname(found).toLowerCase())
    ? { command: process.execPath, args: [found, "--mcp"] }
    : { command: found, args: ["--mcp"] };
}

/** Asks the plugin for its manifest (`describe`, Executa v1), then stops it. */
async function describePlugin(launch: PluginLaunch): Promise<Manifest> {
  const args = launch.args.filter((arg) => arg !== "--mcp");
  const plugin = await spawnPlugin({ command: launch.command, args });
  try {
    return await plugin.describe({ timeoutMs: DESCRIBE_TIMEOUT_MS });
  } finally {
    await plugin.stop();
  }
}

type Credential = NonNullable<Manifest["credentials"]>[number];

/** The placeholder shown for a required credential: what to put there. */
function credentialPlaceholder(credential: Credential): string {
  return `<${credential.display_name ?? credential.description ?? credential.name}>`;
}

/**
 * The `mcpServers` snippet an MCP client needs: the launch command with `--mcp`, and each
 * required credential the manifest declares as an environment variable to fill in (core
 * reads a credential from the variable of the same name). Optional credentials are left
 * out: a placeholder pasted as it is would override their default (see
 * {@link optionalCredentialsNote}).
 */
export function mcpConfigSnippet(
  manifest: Pick<Manifest, "name" | "credentials">,
  launch: PluginLaunch,
  serverName = manifest.name,
): { mcpServers: Record<string, McpServerEntry> } {
  const env = Object.fromEntries(
    (manifest.credentials ?? [])
      .filter((credential) => credential.required !== false)
      .map((credential) => [credential.name, credentialPlaceholder(credential)]),
  );
  return { mcpServers: { [serverName]: { command: launch.command, args: launch.args, env } } };
}

/** What to tell about the optional credentials left out of the snippet; "" when there are none. */
export function optionalCredentialsNote(manifest: Pick<Manifest, "credentials">): string {
  const optional = (manifest.credentials ?? []).filter((credential) => credential.required === false);
  if (optional.length === 0) return "";
  const lines = optional.map(
    (credential) =>
      `  ${credential.name}: ${credential.display_name ?? credential.description ?? "optional"}` +
      (credential.default === undefined ? "" : ` (default: ${credential.default})`),
  );
  return `Optional credentials, left out (add them to "env" to set them):\n${lines.join("\n")}\n`;
}

/**
 * `executa mcp-config NAME_OR_BINARY`: prints the JSON an MCP client (desktop assistant,
 * code editor) needs to launch a built plugin as an MCP server.
 */
export function registerMcpConfigCommand(program: Command, io: CliIO): Command {
  return program
    .command("mcp-config")
    .summary("print the MCP client config that launches a built plugin")
    .description(
      "Prints the `mcpServers` JSON snippet an MCP client needs to launch a built plugin binary or " +
        "bundle as an MCP server (`--mcp`), with the credential environment variables its manifest " +
        "declares. The manifest is read by asking the plugin (`describe`).",
    )
    .argument("<plugin>", "a built binary or bundle, or a plugin name found as dist/NAME or dist/NAME.cjs")
    .option("--name <key>", "the server's key under mcpServers (default: the plugin's name)")
    .addHelpText("after", "\nExamples:\n  executa mcp-config ./dist/weather\n  executa mcp-config weather")
    .action(async (operand: string, flags: { name?: string }) => {
      try {
        const launch = resolvePluginLaunch(operand);
        const manifest = await describePlugin(launch);
        io.stdout.write(`${JSON.stringify(mcpConfigSnippet(manifest, launch, flags.name), null, 2)}\n`);
        io.stderr.write(optionalCredentialsNote(manifest));
      } catch (error) {
        io.stderr.write(`executa mcp-config: ${(error as Error).message}\n`);
        process.exitCode = 1;
      }
    });
}
