import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServed, serveHttp } from "./serve-http.js";

// The MCP Inspector 2.x CLI against the built toolbox binary, as an MCP client author would
// check a server: each protocol era it negotiates (legacy: initialize; modern: 2026-07-28's
// server/discover; auto: probe, then either), over stdio with and without `--mcp`, and over
// Streamable HTTP (`--mcp-http`).
const binary = fileURLToPath(new URL("../dist/toolbox", import.meta.url));
const inspectorPackage = createRequire(join(process.cwd(), "package.json")).resolve(
  "@modelcontextprotocol/inspector/package.json",
);
const inspectorCli = join(dirname(inspectorPackage), "clients", "launcher", "build", "index.js");

const ERAS = ["legacy", "auto", "modern"] as const;
/** Exit code of the Inspector's CLI when the tool answered `isError: true` (the result is still printed). */
const TOOL_IS_ERROR_EXIT = 5;

interface Inspected {
  code: number;
  result: Record<string, unknown>;
}

/** Runs the Inspector's CLI on `target` (a command or a URL), answering its JSON envelope. */
function inspect(target: string[], era: string, ...args: string[]): Promise<Inspected> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [inspectorCli, "--cli", ...target, "--protocol-era", era, "--format", "json", "-q", ...args],
      { timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        try {
          const envelope = JSON.parse(stdout) as { result?: Record<string, unknown> };
          if (!envelope.result) throw new Error("no result");
          resolve({ code, result: envelope.result });
        } catch {
          reject(new Error(`inspector exited ${code}; stdout: ${stdout}; stderr: ${stderr}`));
        }
      },
    );
  });
}

let http: HttpServed;

beforeAll(async () => {
  if (!existsSync(binary))
    throw new Error(`${binary} is missing: run \`pnpm --filter @executa-apps/toolbox build\``);
  if (!existsSync(inspectorCli)) throw new Error(`the MCP Inspector's CLI is not at ${inspectorCli}`);
  http = await serveHttp(binary);
});
afterAll(() => {
  http?.child.kill("SIGTERM");
});

const TARGETS: [label: string, target: () => string[]][] = [
  ["stdio", () => [binary]],
  ["stdio --mcp", () => [binary, "--mcp"]],
  ["HTTP", () => [http.url]],
];

describe.each(TARGETS)("MCP Inspector 2.x CLI against the toolbox (%s)", (_label, target) => {
  it.each(ERAS)("lists every tool with its input and output schemas (%s era)", async (era) => {
    const { code, result } = await inspect(target(), era, "--method", "tools/list");
    expect(code).toBe(0);
    const tools = result.tools as { name: string; inputSchema: unknown; outputSchema?: unknown }[];
    expect(tools.map((tool) => tool.name)).toEqual([
      "json_format",
      "base64_encode",
      "base64_decode",
      "hash_text",
      "batch_hash",
      "generate_dataset",
    ]);
    expect(tools.find((tool) => tool.name === "json_format")?.inputSchema).toMatchObject({
      type: "object",
      properties: { json_string: { type: "string" }, indent: { type: "integer", default: 2 } },
      required: ["json_string"],
    });
    expect(tools.find((tool) => tool.name === "hash_text")?.outputSchema).toMatchObject({
      type: "object",
      required: ["hash", "algorithm", "input_length"],
    });
  });

  it.each(ERAS)("calls a tool: structured content plus the same JSON as text (%s era)", async (era) => {
    const { code, result } = await inspect(
      target(),
      era,
      "--method",
      "tools/call",
      "--tool-name",
      "hash_text",
      "--tool-args-json",
      JSON.stringify({ text: "abc", algorithm: "md5" }),
    );
    expect(code).toBe(0);
    // 2026-07-28 stamps every result with the server's identity: the era really negotiated.
    expect(result._meta !== undefined).toBe(era !== "legacy");
    const expected = { hash: "900150983cd24fb0d6963f7d28e17f72", algorithm: "md5", input_length: 3 };
    expect(result.structuredContent).toEqual(expected);
    expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? "")).toEqual(expected);
  });

  it.each(ERAS)(
    "reports arguments outside the schema as isError, naming the parameter (%s era)",
    async (era) => {
      const { code, result } = await inspect(
        target(),
        era,
        "--method",
        "tools/call",
        "--tool-name",
        "hash_text",
        "--tool-args-json",
        JSON.stringify({ text: "a", algorithm: "crc32" }),
      );
      expect(code).toBe(TOOL_IS_ERROR_EXIT);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect((result.content as { text: string }[])[0]?.text).toContain("algorithm: must be one of");
    },
  );
});
