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
  /** How to start it serving MCP over stdio. */
  line: CommandLine;
  /** The official MCP SDK v2 server every other subject is compared with. */
  reference: boolean;
  /** Whether it speaks the 2026-07-28 revision (the SDK v1 server does not). */
  modern: boolean;
  /**
   * How to start it serving MCP over Streamable HTTP on a free port of 127.0.0.1; it
   * names its endpoint (`http://…/mcp`) on stderr. Absent: not measured over HTTP.
   */
  http?: CommandLine;
}

/** The id of the reference subject. */
export const MCP_REFERENCE_ID = "mcp-sdk-v2";

/** The versions of the SDK packages the reference subjects run on. */
export interface McpReferenceVersions {
  /** `@modelcontextprotocol/server` (SDK v2), the reference. */
  server: string;
  /** `@modelcontextprotocol/sdk` (SDK v1), measured beside it. */
  sdk: string;
  zod: string;
}

/** What the MCP comparison runs, the subjects it cannot, and the SDK versions. */
export interface McpSubjects {
  subjects: McpSubject[];
  skipped: SkippedSubject[];
  referenceVersions?: McpReferenceVersions;
}

/**
 * The MCP subjects: the reference (`subjects/mcp-sdk-v2-server.mjs`, the toolbox's
 * base64_encode on SDK v2's `McpServer` with a zod schema: `serveStdio`, and
 * `createMcpHandler` on node:http with `--http`), the same tool on SDK v1, then each built
 * toolbox artifact with `--mcp` (and `--mcp-http`), the toolbox bundle recognizing MCP from
 * the first frame, and the plugin on core with `--mcp`. Without the reference (an SDK
 * package or zod not installed) nothing is measured: every figure is a ratio to it.
 */
export function discoverMcpSubjects(paths: BenchPaths): McpSubjects {
  const subjectsDir = join(paths.benchDir, "subjects");
  const v2 = join(subjectsDir, "mcp-sdk-v2-server.mjs");
  const versions = referenceVersions(v2);
  if (typeof versions === "string") {
    return {
      subjects: [],
      skipped: [{ id: MCP_REFERENCE_ID, label: "MCP SDK v2 server", reason: versions }],
    };
  }
  const node = process.execPath;
  const subjects: McpSubject[] = [
    {
      id: MCP_REFERENCE_ID,
      label: "SDK v2 McpServer + zod (node)",
      line: { command: node, args: [v2] },
      reference: true,
      modern: true,
      http: { command: node, args: [v2, "--http"] },
    },
    {
      id: "mcp-sdk-v1",
      label: "SDK v1 McpServer + zod (node)",
      line: { command: node, args: [join(subjectsDir, "mcp-sdk-server.mjs")] },
      reference: false,
      modern: false,
    },
  ];
  const skipped: SkippedSubject[] = [];
  for (const { subject, needs } of builtMcpSubjects(paths)) {
    if (existsSync(needs)) subjects.push(subject);
    else skipped.push({ id: subject.id, label: subject.label, reason: `${needs} not built` });
  }
  return { subjects, skipped, referenceVersions: versions };
}

const HTTP_ARGS = ["--mcp-http", "127.0.0.1:0"] as const;

function builtMcpSubjects(paths: BenchPaths): { subject: McpSubject; needs: string }[] {
  const node = process.execPath;
  const toolboxDist = join(paths.repoRoot, "apps", "toolbox", "dist");
  const bundle = join(toolboxDist, "toolbox.cjs");
  const core = join(paths.repoRoot, "packages", "core", "dist", "index.js");
  const measured = (id: string, label: string, line: CommandLine, http?: CommandLine): McpSubject => ({
    id,
    label,
    line,
    reference: false,
    modern: true,
    ...(http && { http }),
  });
  return [
    ...BUN_TOOLBOX_BUILDS.map((build) => {
      const binary = bunToolboxBinary(paths, build);
      const http = { command: binary, args: HTTP_ARGS };
      return {
        subject: measured(build.id, `${build.label} --mcp`, { command: binary, args: ["--mcp"] }, http),
        needs: binary,
      };
    }),
    {
      subject: measured(
        "toolbox-node",
        "node toolbox.cjs --mcp",
        { command: node, args: [bundle, "--mcp"] },
        { command: node, args: [bundle, ...HTTP_ARGS] },
      ),
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

/** The SDK and zod versions the reference scripts resolve, or why they cannot run. */
function referenceVersions(script: string): McpReferenceVersions | string {
  const require = createRequire(script);
  try {
    return {
      server: packageVersion(require.resolve("@modelcontextprotocol/server"), "@modelcontextprotocol/server"),
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
