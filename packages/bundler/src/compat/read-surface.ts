import { readFile } from "node:fs/promises";
import { unzipSync } from "fflate";
import { list } from "tar";
import { asObject, type JsonObject } from "./surface-change.js";

/** A tool surface read from a file, and how much of it the file carried. */
export interface LoadedSurface {
  /** `name`, `version`, `tools` and `credentials`, as a manifest carries them. */
  surface: Record<string, unknown>;
  /** `true` for an `executa.json`, which names the tools but not their parameters. */
  namesOnly: boolean;
}

/**
 * The fields of a manifest that make its surface, as `executa.surface.json` keeps them;
 * each tool with its `input_schema` and `output_schema` where `schemas` (by tool name, as
 * MCP lists them: the lossless input, and the output the Executa manifest has not) give them.
 */
export function surfaceOf(
  manifest: unknown,
  schemas: { input?: Readonly<Record<string, unknown>>; output?: Readonly<Record<string, unknown>> } = {},
): Record<string, unknown> {
  const { name, version, tools, credentials } = asObject(manifest);
  const withOutputs = Array.isArray(tools)
    ? tools.map((tool) => {
        const toolName = String(asObject(tool).name);
        const input = schemas.input?.[toolName];
        const output = schemas.output?.[toolName];
        return {
          ...asObject(tool),
          ...(input !== undefined && { input_schema: input }),
          ...(output !== undefined && { output_schema: output }),
        };
      })
    : tools;
  return credentials === undefined
    ? { name, version, tools: withOutputs }
    : { name, version, tools: withOutputs, credentials };
}

/**
 * Reads a tool surface from a manifest JSON (`manifest.json`, `executa.surface.json`), an
 * `executa.json` (tool names only) or a release archive (`.tar.gz`, `.zip`) holding a
 * `manifest.json`.
 *
 * @throws Error naming the file and what it lacks.
 */
export async function readSurface(file: string): Promise<LoadedSurface> {
  const bytes = await readFile(file);
  const text = /\.(tar\.gz|tgz)$/i.test(file)
    ? await manifestInTar(file)
    : /\.zip$/i.test(file)
      ? manifestInZip(bytes, file)
      : bytes.toString("utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON: ${(error as Error).message}`);
  }
  return surfaceFromJson(json, file);
}

/** The surface in parsed JSON: a manifest's fields, or an `executa.json`'s tool names. */
export function surfaceFromJson(json: unknown, file: string): LoadedSurface {
  const object = asObject(json);
  if (Array.isArray(object.tools)) return { surface: surfaceOf(object), namesOnly: false };
  const binary = asObject(asObject(asObject(object.distribution).profiles).binary);
  if (Array.isArray(binary.capabilities)) {
    const tools = binary.capabilities.map((name) => ({ name }));
    return { surface: { name: object.slug, version: object.version, tools }, namesOnly: true };
  }
  throw new Error(
    `${file} holds no tool surface: expected a manifest (with "tools") or an executa.json ` +
      `(with distribution.profiles.binary.capabilities)`,
  );
}

/**
 * Both surfaces cut to what each side knows: tool names only when either is an
 * `executa.json`; no output schemas when either carries none (a plain Executa manifest
 * has none: only the build's surface, read over MCP, does), so their absence is not a
 * removal.
 */
export function comparable(
  before: LoadedSurface,
  after: LoadedSurface,
): [Record<string, unknown>, Record<string, unknown>] {
  if (!before.namesOnly && !after.namesOnly) {
    if (hasOutputSchemas(before.surface) && hasOutputSchemas(after.surface))
      return [before.surface, after.surface];
    return [withoutOutputSchemas(before.surface), withoutOutputSchemas(after.surface)];
  }
  const names = ({ surface }: LoadedSurface): JsonObject => ({
    ...surface,
    tools: (surface.tools as unknown[]).map((tool) => ({ name: asObject(tool).name })),
    credentials: undefined,
  });
  return [names(before), names(after)];
}

function toolsOf(surface: Record<string, unknown>): JsonObject[] {
  return Array.isArray(surface.tools) ? surface.tools.map(asObject) : [];
}

function hasOutputSchemas(surface: Record<string, unknown>): boolean {
  return toolsOf(surface).some((tool) => tool.output_schema !== undefined || tool.outputSchema !== undefined);
}

function withoutOutputSchemas(surface: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(surface.tools)) return surface;
  const tools = toolsOf(surface).map(({ output_schema: _, outputSchema: __, ...tool }) => tool);
  return { ...surface, tools };
}

async function manifestInTar(file: string): Promise<string> {
  const chunks: Buffer[] = [];
  await list({
    file,
    filter: (path) => path.replace(/^\.\//, "") === "manifest.json",
    onReadEntry: (entry) => {
      entry.on("data", (chunk: Buffer) => chunks.push(chunk));
    },
  });
  if (chunks.length === 0) throw new Error(`${file} holds no manifest.json`);
  return Buffer.concat(chunks).toString("utf8");
}

function manifestInZip(bytes: Buffer, file: string): string {
  const entries = unzipSync(bytes, {
    filter: (entry) => entry.name.replace(/^\.\//, "") === "manifest.json",
  });
  const entry = Object.values(entries)[0];
  if (!entry) throw new Error(`${file} holds no manifest.json`);
  return Buffer.from(entry).toString("utf8");
}
