import type { CredentialSpec, Manifest } from "@executa/core";
import type { KnownPlatform, TargetPlatform } from "../platform/platforms.js";
import { archiveEntrypoint, DATA_DIR } from "./binary-manifest.js";

/** The bundle manifest version written: the newest `mcpb validate` accepts for `server.type: "binary"`. */
export const MCPB_MANIFEST_VERSION = "0.3";

/** Where a bundle keeps its icon, relative to its root. */
export const MCPB_ICON = "icon.png";

/** The key under `_meta` that holds what only Executa reads. */
export const MCPB_META_KEY = "executa";

/** A `user_config` entry of a bundle manifest: one declared credential, asked of the user at install. */
export interface McpbUserConfigOption {
  /** Credentials are strings. */
  type: "string";
  /** The label the client shows: the credential's name. */
  title: string;
  /** The credential's description. */
  description: string;
  /** Whether the client refuses to start the server without it. */
  required: boolean;
  /** Whether the client stores it as a secret and masks it. */
  sensitive: boolean;
  /** `""` for an optional credential without a default, so an unset one reaches the plugin empty (not as `${user_config.…}`). */
  default?: string;
}

/** How the desktop client starts the server: paths under `${__dirname}`, the bundle's unpacked folder. */
export interface McpbMcpConfig {
  /** The binary, `${__dirname}/…`. */
  command: string;
  /** `--mcp`: the binary serves MCP. */
  args: string[];
  /** Credentials from `user_config`, and `EXECUTA_DATA` when the bundle holds data. */
  env: Record<string, string>;
}

/** The bundle's `manifest.json` (MCPB manifest 0.3), as written; only the keys the schema knows. */
export interface McpbManifest {
  /** {@link MCPB_MANIFEST_VERSION}. */
  manifest_version: typeof MCPB_MANIFEST_VERSION;
  /** The plugin's name. */
  name: string;
  /** The plugin's display name, when it declares one. */
  display_name?: string;
  /** The plugin's version. */
  version: string;
  /** The plugin's description. */
  description: string;
  /** The plugin's author (else its display name, else its name). */
  author: { name: string };
  /** The plugin's homepage, when it is an absolute http(s) URL. */
  homepage?: string;
  /** {@link MCPB_ICON}, when the bundle holds an icon. */
  icon?: string;
  /** The one binary of the bundle and how the client starts it. */
  server: { type: "binary"; entry_point: string; mcp_config: McpbMcpConfig };
  /** Each tool's name and description. */
  tools: { name: string; description: string }[];
  /** The plugin's category, when it declares one. */
  keywords?: string[];
  /** The plugin's licence, when it declares one. */
  license?: string;
  /** The one OS the bundle's binary runs on. */
  compatibility: { platforms: ("darwin" | "win32" | "linux")[] };
  /** One entry per declared credential. */
  user_config?: Record<string, McpbUserConfigOption>;
  /** What only Executa reads, under {@link MCPB_META_KEY}. */
  _meta: Record<typeof MCPB_META_KEY, McpbExecutaMeta>;
}

/** What the bundle carries for Executa under `_meta.executa`. */
export interface McpbExecutaMeta {
  /** The platform the binary was built for. */
  platform: KnownPlatform;
  /** The distributed Executa manifest, exactly as the archive's `manifest.json`. */
  manifest: Manifest;
}

/** Inputs of {@link mcpbManifest}. */
export interface McpbManifestInput {
  /** The distributed manifest (with `runtime.binary`). */
  manifest: Manifest;
  /** The artifact name: the binary's file name. */
  name: string;
  platform: TargetPlatform;
  /** Whether the bundle holds `icon.png`. */
  icon: boolean;
  /** Whether the bundle holds `data/` (then `EXECUTA_DATA` points there). */
  data: boolean;
}

/** The bundle's own folder in `mcp_config`, substituted by the client when it starts the server. */
const DIRNAME = "$" + "{__dirname}";

const MCPB_OS: Record<TargetPlatform["os"], "darwin" | "win32" | "linux"> = {
  darwin: "darwin",
  linux: "linux",
  windows: "win32",
};

/**
 * The bundle manifest of one platform's binary: started with `--mcp`, every declared
 * credential a `user_config` entry passed in the environment under its own name, the
 * install folder as `EXECUTA_HOME`, and the Executa manifest under `_meta.executa`.
 */
export function mcpbManifest(input: McpbManifestInput): McpbManifest {
  const { manifest, platform } = input;
  const entryPoint = archiveEntrypoint(input.name, platform.key);
  const credentials = manifest.credentials ?? [];
  const env: Record<string, string> = { EXECUTA_HOME: DIRNAME };
  if (input.data) env.EXECUTA_DATA = `${DIRNAME}/${DATA_DIR}`;
  for (const credential of credentials) env[credential.name] = `\${user_config.${credential.name}}`;
  const bundle: McpbManifest = {
    manifest_version: MCPB_MANIFEST_VERSION,
    name: manifest.name,
    ...(manifest.display_name ? { display_name: manifest.display_name } : {}),
    version: manifest.version,
    description: manifest.description,
    author: { name: manifest.author ?? manifest.display_name ?? manifest.name },
    ...(isHttpUrl(manifest.homepage) ? { homepage: manifest.homepage } : {}),
    ...(input.icon ? { icon: MCPB_ICON } : {}),
    server: {
      type: "binary",
      entry_point: entryPoint,
      mcp_config: { command: `${DIRNAME}/${entryPoint}`, args: ["--mcp"], env },
    },
    tools: manifest.tools.map((tool) => ({ name: tool.name, description: tool.description })),
    ...(manifest.category ? { keywords: [manifest.category] } : {}),
    ...(manifest.license ? { license: manifest.license } : {}),
    compatibility: { platforms: [MCPB_OS[platform.os]] },
    _meta: { [MCPB_META_KEY]: { platform: platform.key, manifest } },
  };
  if (credentials.length > 0) {
    bundle.user_config = Object.fromEntries(
      credentials.map((credential) => [credential.name, userConfig(credential)]),
    );
  }
  return bundle;
}

/** A credential as the user is asked for it; secret unless it says otherwise. */
function userConfig(credential: CredentialSpec): McpbUserConfigOption {
  const title = credential.display_name ?? credential.name;
  const required = credential.required === true;
  const option: McpbUserConfigOption = {
    type: "string",
    title,
    description: credential.description ?? title,
    required,
    sensitive: credential.sensitive !== false,
  };
  const fallback = credential.default ?? (required ? undefined : "");
  if (fallback !== undefined) option.default = fallback;
  return option;
}

/** The schema takes only an absolute http(s) URL as `homepage`. */
function isHttpUrl(value: string | undefined): value is string {
  if (value === undefined) return false;
  try {
    const { protocol } = new URL(value);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}
