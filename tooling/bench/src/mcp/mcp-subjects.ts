import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { CommandLine } from "../driver/subject-process.js";
import { type BenchPaths, BUN_TOOLBOX_BUILDS, bunToolboxBinary, type SkippedSubject } from "../subjects.js";

/** One program the MCP figures measure. */
export interface McpSubject {
  /** Stable key used in the JSON results. */
  id: string;
  /** Human name used in the table. */
  label: string;
  line: CommandLine;
  /** The official MCP SDK server every other subject is compared with. */
  reference: boolean;
}

/** The id of the reference subject. */
export const MCP_REFERENCE_ID = "mcp-sdk";

/** What the MCP comparison runs, the subjects it cannot, and the SDK version of the reference. */
export interface McpSubjects {
  subjects: McpSubject[];
  skipped: SkippedSubject[];
  /** Versions of `@modelcontextprotocol/sdk` and `zod` the reference runs on. */
  referenceVersions?: { sdk: string; zod: string };
}

/**
 * The MCP subjects: the reference (`subjects/mcp-sdk-server.mjs`, the toolbox's
 * base64_encode on `McpServer` + `StdioServerTransport` with a zod schema), then each
 * built toolbox artifact with `--mcp`, the toolbox bundle recognizing MCP from the first
 * frame, and the plugin on core with `--mcp`. Without the reference (the SDK or zod not
 * installed) nothing is measured: every figure is a ratio to it.
 */
export function discoverMcpSubjects(paths: BenchPaths): McpSubjects {
  const script = join(paths.benchDir, "subjects", "mcp-sdk-server.mjs");
  const versions = referenceVersions(script);
  if (typeof versions === "string") {
    return { subjects: [], skipped: [{ id: MCP_REFERENCE_ID, label: "MCP SDK server", reason: versions }] };
  }
  const node = process.execPath;
  const subjects: McpSubject[] = [
    {
      id: MCP_REFERENCE_ID,
      label: "MCP SDK McpServer + zod (node)",
      line: { command: node, args: [script] },
      reference: true,
    },
  ];
  const skipped: SkippedSubject[] = [];
  for (const { subject, needs } of builtMcpSubjects(paths)) {
    if (existsSync(needs)) subjects.push(subject);
    else skipped.push({ id: subject.id, label: subject.label, reason: `${needs} not built` });
  }
  return { subjects, skipped, referenceVersions: versions };
}

function builtMcpSubjects(paths: BenchPaths): { subject: McpSubject; needs: string }[] {
  const node = process.execPath;
  const toolboxDist = join(paths.repoRoot, "apps", "toolbox", "dist");
  const bundle = join(toolboxDist, "toolbox.cjs");
  const core = join(paths.repoRoot, "packages", "core", "dist", "index.js");
  const measured = (id: string, label: string, line: CommandLine) => ({ id, label, line, reference: false });
  return [
    ...BUN_TOOLBOX_BUILDS.map((build) => {
      const bun = bunToolboxBinary(paths, build);
      return {
        subject: measured(build.id, `${build.label} --mcp`, { command: bun, args: ["--mcp"] }),
        needs: bun,
      };
    }),
    {
      subject: measured("toolbox-node", "node toolbox.cjs --mcp", { command: node, args: [bundle, "--mcp"] }),
      needs: bundle,
    },
    {
      subject: measured("toolbox-node-detected", "node toolbox.cjs, MCP detected", {
        command: node,
        args: [bundle],
      }),
      needs: bundle,
    },
    {
      subject: measured("core-plugin", "plugin on @executa/core --mcp", {
        command: node,
        args: [join(paths.benchDir, "subjects", "core-plugin.mjs"), "--mcp"],
      }),
      needs: core,
    },
  ];
}

/** The SDK and zod versions the reference script resolves, or why it cannot run. */
function referenceVersions(script: string): { sdk: string; zod: string } | string {
  const require = createRequire(script);
  try {
    return {
      sdk: packageVersion(
        require.resolve("@modelcontextprotocol/sdk/server/mcp.js"),
        "@modelcontextprotocol/sdk",
      ),
      zod: packageVersion(require.resolve("zod"), "zod"),
    };
  } catch (error) {
    return `the MCP SDK reference cannot run: ${(error as Error).message.split("\n")[0]}`;
  }
}

/** The version in the package.json of `name` above `file`. */
function packageVersion(file: string, name: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (!existsSync(manifest)) continue;
    const parsed = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
    if (parsed.name === name && parsed.version) return parsed.version;
  }
  throw new Error(`no package.json of ${name} above ${file}`);
}
