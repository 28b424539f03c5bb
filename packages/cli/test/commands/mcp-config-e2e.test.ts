import { existsSync } from "node:fs";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  mcpConfigSnippet,
  optionalCredentialsNote,
  resolvePluginLaunch,
} from "../../src/commands/mcp-config.js";
import { createProgram } from "../../src/program.js";

// The built weather sample (`pnpm --filter @executa-apps/weather build`): it declares a credential.
const weatherDist = fileURLToPath(new URL("../../../../apps/weather/dist/", import.meta.url));
const binary = `${weatherDist}weather`;
const bundle = `${weatherDist}weather.cjs`;

beforeAll(() => {
  for (const path of [binary, bundle]) {
    if (!existsSync(path))
      throw new Error(`${path} is missing: run \`pnpm --filter @executa-apps/weather build\``);
  }
});

afterEach(() => {
  process.exitCode = undefined;
});

async function run(args: string[], cwd?: string): Promise<{ stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const previous = process.cwd();
  if (cwd) process.chdir(cwd);
  try {
    await createProgram({ stdin: new PassThrough(), stdout, stderr }).parseAsync([
      "node",
      "executa",
      ...args,
    ]);
  } finally {
    process.chdir(previous);
  }
  return { stdout: out, stderr: err };
}

// Weather's only credential is optional: left out of env (a placeholder pasted as it is
// would be taken for a key), and named on stderr instead.
const WEATHER_KEY = {};

describe("executa mcp-config", () => {
  it("prints the mcpServers snippet for a binary, credentials as env vars from its manifest", async () => {
    const { stdout, stderr } = await run(["mcp-config", binary]);
    expect(stderr).toMatch(
      /^Optional credentials, left out \(add them to "env" to set them\):\n {2}WEATHER_API_KEY: /,
    );
    expect(JSON.parse(stdout)).toEqual({
      mcpServers: { weather: { command: binary, args: ["--mcp"], env: WEATHER_KEY } },
    });
    expect(process.exitCode).toBeUndefined();
  });

  it("runs a bundle with this node and finds a plugin by name under dist/, under the key asked for", async () => {
    const { stdout } = await run(
      ["mcp-config", "weather.cjs", "--name", "forecast"],
      weatherDist.slice(0, -5),
    );
    expect(JSON.parse(stdout)).toEqual({
      mcpServers: { forecast: { command: process.execPath, args: [bundle, "--mcp"], env: WEATHER_KEY } },
    });
  });

  it("fails with the paths it tried when nothing matches", async () => {
    const { stdout, stderr } = await run(["mcp-config", "no-such-plugin"]);
    expect(stdout).toBe("");
    expect(stderr).toMatch(
      /no plugin binary or bundle for "no-such-plugin"; tried .*dist\/no-such-plugin\.cjs/,
    );
    expect(process.exitCode).toBe(1);
  });

  it("fails clearly when the file is not a plugin", async () => {
    const { stderr } = await run([
      "mcp-config",
      fileURLToPath(new URL("../../package.json", import.meta.url)),
    ]);
    expect(stderr).toMatch(/executa mcp-config: /);
    expect(process.exitCode).toBe(1);
  });
});

describe("mcpConfigSnippet / resolvePluginLaunch", () => {
  it("names each required credential with a placeholder, never an optional one, and no env when none is declared", () => {
    const launch = { command: "/p", args: ["--mcp"] };
    expect(
      mcpConfigSnippet(
        {
          name: "p",
          credentials: [
            { name: "A_KEY", description: "The A key" },
            { name: "B", required: false },
            {
              name: "API_BASE",
              description: "API base URL",
              required: false,
              default: "https://api.example",
            },
          ],
        },
        launch,
      ),
    ).toEqual({
      mcpServers: {
        p: { command: "/p", args: ["--mcp"], env: { A_KEY: "<The A key>" } },
      },
    });
    expect(
      optionalCredentialsNote({
        credentials: [
          { name: "API_BASE", description: "API base URL", required: false, default: "https://api.example" },
        ],
      }),
    ).toBe(
      'Optional credentials, left out (add them to "env" to set them):\n  API_BASE: API base URL (default: https://api.example)\n',
    );
    expect(optionalCredentialsNote({ credentials: [{ name: "A_KEY" }] })).toBe("");
    expect(mcpConfigSnippet({ name: "p" }, launch).mcpServers.p?.env).toEqual({});
    expect(resolvePluginLaunch(binary)).toEqual({ command: binary, args: ["--mcp"] });
  });
});
