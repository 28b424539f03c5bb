import { DESCRIBE_TIMEOUT_MS, type Manifest, REVERSE_FAMILIES } from "@executa/core";
import { ExecutaBuildError } from "../errors/build-error.js";
import type { ArtifactCommand } from "../verify/artifact-process.js";
import { readFallbackFamilies } from "../verify/mcp-answers.js";

/** The families an MCP client cannot provide and `mcpLocalFallback()` can: storage and files. */
const LOCAL_FAMILIES = ["storage", "files"];

/** What the check reads of the build. */
export interface McpbFallbackBuild {
  options: { mcpb?: boolean; mcpbWithoutFallback?: boolean; describeTimeoutMs?: number };
  /** The verified bundle: its manifest, and its file, spoken to in MCP to learn which families its fallback answers. */
  bundle: { path: string; manifest: Manifest };
  run: { cwd?: string; env?: NodeJS.ProcessEnv };
  notes: string[];
}

/**
 * With the `mcpb` option, before any binary is built: refuses a plugin whose
 * `host_capabilities` needs storage or files while it serves MCP without a fallback for
 * them, since once its `.mcpb` is installed in a desktop client every call of those
 * families would fail. With `mcpbWithoutFallback` the refusal is a warning in the build's
 * notes instead.
 */
export async function checkMcpbFallback(build: McpbFallbackBuild): Promise<void> {
  if (!build.options.mcpb) return;
  const manifest = build.bundle.manifest;
  const needed = neededLocalFamilies(manifest);
  if (needed.length === 0) return;
  const command: ArtifactCommand = { command: process.execPath, args: [build.bundle.path], ...build.run };
  const answered = await readFallbackFamilies(
    command,
    build.options.describeTimeoutMs ?? DESCRIBE_TIMEOUT_MS,
  );
  const missing = needed.filter((family) => !answered.includes(family));
  if (missing.length === 0) return;
  const capabilities = grantsOf(missing).filter((grant) => manifest.host_capabilities?.includes(grant));
  const problem =
    `host_capabilities declares ${capabilities.join(", ")}, but the plugin serves MCP without a fallback for ` +
    `${missing.join(" and ")}: MCP clients provide no storage or files, so once the .mcpb is installed every ` +
    `${missing.join(" or ")} call of its tools fails`;
  if (build.options.mcpbWithoutFallback) {
    build.notes.push(`${problem} (packed anyway: --mcpb-without-fallback)`);
    return;
  }
  throw new ExecutaBuildError(
    "MCPB_NO_FALLBACK",
    `${problem}. Fix: serve it with { mcp: { fallback: mcpLocalFallback() } } (mcpLocalFallback from ` +
      "@executa/host/local; serve(Class, { mcp: … }) or definePlugin({ options: { mcp: … } })), " +
      "or pack it anyway with --mcpb-without-fallback (mcpbWithoutFallback: true)",
    { step: "mcpb" },
  );
}

/** The local families the manifest's `host_capabilities` grants. */
function neededLocalFamilies(manifest: Manifest): string[] {
  const declared = manifest.host_capabilities ?? [];
  return REVERSE_FAMILIES.filter(
    (family) =>
      LOCAL_FAMILIES.includes(family.name) &&
      family.grants.some((grant) => declared.includes(grant.capability)),
  ).map((family) => family.name);
}

/** The `host_capabilities` strings that grant `families`. */
function grantsOf(families: readonly string[]): string[] {
  return REVERSE_FAMILIES.filter((family) => families.includes(family.name)).flatMap((family) =>
    family.grants.map((grant) => grant.capability),
  );
}
