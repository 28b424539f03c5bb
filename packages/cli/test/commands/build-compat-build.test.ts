import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixture, runCli } from "../helpers/cli.js";

// `executa build` in a project with a released surface (executa.surface.json) and a
// package.json: the plugin (fixtures/surface-plugin, version 1.1.0, tool `greet`) is
// built for real, from source to the verified bundle.
const entry = fixture("surface-plugin/main.ts");
const greet = {
  name: "greet",
  description: "Greets someone.",
  parameters: [{ name: "who", type: "string", description: "Who to greet." }],
};
/** What MCP lists as greet's output schema (the fixture's `outputSchemas`): part of the surface. */
const greetOutput = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
/** What MCP lists as greet's input schema (from the manifest: the fixture is hand-written): part of the surface. */
const greetInput = {
  type: "object",
  properties: { who: { type: "string", description: "Who to greet." } },
  required: ["who"],
};
const released = (version: string, tools: unknown[]) => ({ name: "surface-plugin", version, tools });

let project: string;
const write = (name: string, json: unknown) =>
  writeFile(join(project, name), `${JSON.stringify(json, null, 2)}\n`);
const build = (...flags: string[]) =>
  runCli(["build", entry, "--no-binary", "--out-dir", join(project, "dist"), ...flags], {
    cwd: project,
    env: { EXECUTA_BUILD_QUIET: "0" },
    timeoutMs: 120_000,
  });

beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), "executa-build-compat-"));
  await write("package.json", { name: "surface-plugin", version: "1.1.0", private: true });
});
afterEach(() => rm(project, { recursive: true, force: true }));

describe("executa build against the released surface", () => {
  it("fails on a breaking change without the major bump, listing each change and the version it needs", async () => {
    const forecast = { name: "forecast", description: "Days ahead." };
    const old = { ...greet, parameters: [{ ...greet.parameters[0], required: false }] };
    await write("executa.surface.json", released("1.0.0", [old, forecast]));
    const run = await build();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('executa build failed at "compat": 2 change(s) break callers of 1.0.0');
    expect(run.stderr).toContain("version 1.1.0 is not 2.0.0 or later");
    expect(run.stderr).toContain(
      "  - parameter `who` newly required (tools[greet].parameters[who].required)",
    );
    expect(run.stderr).toContain("  - tool `forecast` removed (tools[forecast])");
    expect(run.stderr).toContain("Fix: set the version to 2.0.0");
  }, 150_000);

  it("passes a compatible change, and --release records the new surface", async () => {
    await write("executa.surface.json", released("1.0.0", [{ ...greet, description: "Says hello." }]));
    const run = await build("--release");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    // The older surface recorded no output schemas: they are compared only when both sides do.
    expect(run.stdout).toMatch(/compat +1 change\(s\) since 1\.0\.0, 0 breaking/);
    expect(run.stdout).toMatch(/release +executa\.surface\.json records 1\.1\.0/);
    const recorded = JSON.parse(await readFile(join(project, "executa.surface.json"), "utf8"));
    expect(recorded).toEqual({
      ...released("1.1.0", [{ ...greet, input_schema: greetInput, output_schema: greetOutput }]),
    });
  }, 150_000);

  it("fails on an output field removed (the output schema MCP lists is part of the surface)", async () => {
    const richer = {
      ...greetOutput,
      properties: { ...greetOutput.properties, lang: { type: "string" } },
    };
    await write("executa.surface.json", released("1.0.0", [{ ...greet, output_schema: richer }]));
    const run = await build();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("output field `lang` removed (tools[greet].output_schema.properties[lang])");
  }, 150_000);

  it("--compat names another released surface; --no-compat compares with none", async () => {
    await write("old.json", released("1.0.0", [greet, { name: "gone", description: "x" }]));
    const named = await build("--compat", join(project, "old.json"));
    expect(named.code).toBe(1);
    expect(named.stderr).toContain("  - tool `gone` removed (tools[gone])");
    await write("executa.surface.json", released("1.0.0", [{ name: "gone", description: "x" }]));
    const none = await build("--no-compat");
    expect(none.stderr).toBe("");
    expect(none.code).toBe(0);
  }, 150_000);

  it("--surface-out writes the built surface, output schemas included, and records no release", async () => {
    const before = released("1.0.0", [greet]);
    await write("executa.surface.json", before);
    const run = await build("--no-compat", "--surface-out", join(project, "out", "surface.json"));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/surface +out\/surface\.json: the tool surface of 1\.1\.0/);
    const written = JSON.parse(await readFile(join(project, "out", "surface.json"), "utf8"));
    expect(written).toEqual(
      released("1.1.0", [{ ...greet, input_schema: greetInput, output_schema: greetOutput }]),
    );
    expect(JSON.parse(await readFile(join(project, "executa.surface.json"), "utf8"))).toEqual(before);
  }, 150_000);

  it("fails when package.json and the manifest name two versions, naming both", async () => {
    await write("package.json", { name: "surface-plugin", version: "1.0.9", private: true });
    const run = await build();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "two versions: package.json says 1.0.9, the plugin's manifest (@Plugin({ version })) says 1.1.0",
    );
    expect(run.stderr).toContain("Fix: keep one");
  }, 150_000);
});
