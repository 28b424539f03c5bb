import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { getMcpConfigForManifest } from "@anthropic-ai/mcpb";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runCli, runProcess } from "../helpers/cli.js";

// `executa build --mcpb` on the two sample apps, for this machine: each bundle is checked
// with mcpb's own CLI (info, unpack, validate), resolved with mcpb's own
// getMcpConfigForManifest as a desktop client does, and what that config starts is driven
// by the official MCP SDK client over real pipes.
const BUILD_TIMEOUT_MS = 600_000;
const MCPB = fileURLToPath(new URL("../../../../node_modules/.bin/mcpb", import.meta.url));
const app = (name: string) => fileURLToPath(new URL(`../../../../apps/${name}`, import.meta.url));
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

interface Built {
  run: CliRun;
  bundle: string;
  unpacked: string;
  manifest: Record<string, unknown> & { user_config?: Record<string, unknown> };
}

const mcpb = (...args: string[]) => runProcess(MCPB, args, { timeoutMs: 120_000 });

/** Builds the app with `--mcpb` (and any extra flags), then unpacks its bundle with `mcpb unpack`. */
async function buildBundle(name: string, out: string, extra: string[] = []): Promise<Built> {
  const run = await runCli(["build", "--mcpb", "--out-dir", out, ...extra], {
    cwd: app(name),
    env: { EXECUTA_BUILD_QUIET: "0" },
    timeoutMs: BUILD_TIMEOUT_MS,
  });
  // One target (this machine's), so one bundle.
  const bundles = (await readdir(out).catch(() => [])).filter((file) => file.endsWith(".mcpb"));
  expect(bundles, run.stdout + run.stderr).toHaveLength(1);
  const bundle = join(out, bundles[0]!);
  const unpacked = join(out, "unpacked");
  const unpack = await mcpb("unpack", bundle, unpacked);
  expect(unpack.code, unpack.stdout + unpack.stderr).toBe(0);
  const manifest = JSON.parse(await readFile(join(unpacked, "manifest.json"), "utf8"));
  return { run, bundle, unpacked, manifest };
}

/** The config a desktop client derives from the unpacked bundle, with the user's settings. */
async function clientConfig(built: Built, userConfig: Record<string, string> = {}) {
  const config = await getMcpConfigForManifest({
    manifest: built.manifest as never,
    extensionPath: built.unpacked,
    systemDirs: {
      HOME: tmpdir(),
      DATA: tmpdir(),
      DOCUMENTS: tmpdir(),
      DOWNLOADS: tmpdir(),
      DESKTOP: tmpdir(),
    },
    userConfig,
    pathSeparator: sep,
  });
  if (!config) throw new Error("mcpb resolved no config for the bundle");
  return config;
}

/** Starts what the config names with the SDK v1 client. */
async function connect(config: { command: string; args?: string[]; env?: Record<string, string> }) {
  const transport = new StdioClientTransport({ ...config, stderr: "pipe" });
  const client = new Client({ name: "mcpb-launch-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function expectValidBundle(built: Built, name: string): Promise<void> {
  const file = basename(built.bundle);
  expect(file).toMatch(new RegExp(`^${name}-(linux|darwin|windows)-(x86_64|aarch64|arm64)\\.mcpb$`));
  expect(built.run.stderr).not.toContain("executa build failed");
  expect(built.run.code, built.run.stderr).toBe(0);
  expect(built.run.stdout).toMatch(new RegExp(`mcpb +\\S*${file}`));
  const sha256 = createHash("sha256")
    .update(await readFile(built.bundle))
    .digest("hex");
  expect(await readFile(`${built.bundle}.sha256`, "utf8")).toBe(`${sha256}  ${file}\n`);
  const info = await mcpb("info", built.bundle);
  expect(info.code, info.stdout + info.stderr).toBe(0);
  expect(info.stdout).toContain(`File: ${file}`);
  const validated = await mcpb("validate", built.unpacked);
  expect(validated.code, validated.stdout + validated.stderr).toBe(0);
  expect(validated.stdout).toContain("Manifest schema validation passes!");
}

describe("executa build --mcpb on the toolbox sample, with a PNG icon", () => {
  let out: string;
  let built: Built;
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), "executa-mcpb-toolbox-"));
    const icon = join(out, "toolbox-icon.png");
    await writeFile(icon, PNG);
    built = await buildBundle("toolbox", join(out, "dist"), ["--mcpb-icon", icon]);
  }, BUILD_TIMEOUT_MS);
  afterAll(() => rm(out, { recursive: true, force: true }));

  it("writes a bundle with its sha256 that mcpb reads and validates, icon included", async () => {
    await expectValidBundle(built, "toolbox");
    expect(built.manifest.icon).toBe("icon.png");
    expect(await readFile(join(built.unpacked, "icon.png"))).toEqual(PNG);
  }, 300_000);

  it("starts, as mcpb resolves it, a server the SDK client lists every tool of and calls", async () => {
    const config = await clientConfig(built);
    expect(config).toMatchObject({ args: ["--mcp"], env: { EXECUTA_HOME: built.unpacked } });
    const client = await connect(config);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        (built.manifest.tools as { name: string }[]).map((t) => t.name),
      );
      const result = await client.callTool({
        name: "hash_text",
        arguments: { text: "a", algorithm: "sha256" },
      });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.structuredContent)).toContain(
        createHash("sha256").update("a").digest("hex"),
      );
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe("executa build --mcpb on the weather sample, whose API key is an optional credential", () => {
  let out: string;
  let built: Built;
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), "executa-mcpb-weather-"));
    built = await buildBundle("weather", join(out, "dist"));
  }, BUILD_TIMEOUT_MS);
  afterAll(() => rm(out, { recursive: true, force: true }));

  it("writes a bundle that mcpb validates, asking for the key as an optional secret", async () => {
    await expectValidBundle(built, "weather");
    expect(built.manifest).not.toHaveProperty("icon");
    expect(built.manifest.user_config).toEqual({
      WEATHER_API_KEY: expect.objectContaining({
        type: "string",
        required: false,
        sensitive: true,
        default: "",
      }),
    });
  }, 300_000);

  it("starts with the key unset as empty (not the user_config placeholder), and answers a call the SDK client makes", async () => {
    const config = await clientConfig(built);
    expect(config.env).toMatchObject({ WEATHER_API_KEY: "" });
    const client = await connect(config);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["get_weather", "get_forecast"]);
      // Out of range, so it is answered without the network.
      const result = await client.callTool({ name: "get_forecast", arguments: { city: "Paris", days: 99 } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/days/);
    } finally {
      await client.close();
    }
  }, 120_000);
});
