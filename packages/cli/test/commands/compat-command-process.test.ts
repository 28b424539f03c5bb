import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { create as createTar } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

// `executa compat OLD NEW` on files, as a release script runs it.
type Json = Record<string, unknown>;

const tool = (parameters: Json[]) => ({ name: "get_weather", description: "Current weather.", parameters });
const manifest = (version: string, tools: Json[]) => ({
  name: "weather",
  version,
  description: "Weather.",
  tools,
});
const city = { name: "city", type: "string" };
const unit = { name: "unit", type: "string", enum: ["c", "f"], required: false };

let dir: string;
const path = (name: string) => join(dir, name);
const write = (name: string, json: unknown) => writeFile(path(name), `${JSON.stringify(json, null, 2)}\n`);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "executa-compat-"));
  await write("1.2.0.json", manifest("1.2.0", [tool([city, unit])]));
  await write("1.3.0-narrowed.json", manifest("1.3.0", [tool([city, { ...unit, enum: ["c"] }])]));
  await write("2.0.0-narrowed.json", manifest("2.0.0", [tool([city, { ...unit, enum: ["c"] }])]));
  await write(
    "1.3.0-added.json",
    manifest("1.3.0", [tool([city, unit]), { name: "forecast", description: "Days." }]),
  );
  await write("executa.json", {
    slug: "weather",
    version: "1.3.0",
    distribution: { active: "binary", profiles: { binary: { capabilities: ["forecast"] } } },
  });
  const stage = path("stage");
  await import("node:fs/promises").then((fs) => fs.mkdir(join(stage, "bin"), { recursive: true }));
  const released = JSON.stringify(manifest("1.2.0", [tool([city, unit])]));
  await writeFile(join(stage, "manifest.json"), released);
  await writeFile(join(stage, "bin", "weather"), "#!/bin/sh\n");
  await createTar({ gzip: true, file: path("weather-1.2.0.tar.gz"), cwd: stage, portable: true }, [
    "manifest.json",
    "bin",
  ]);
  await writeFile(path("weather-1.2.0.zip"), zipSync({ "manifest.json": Buffer.from(released) }));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("executa compat", () => {
  it("exits 1 on a breaking change without a major bump, naming the change and the version it needs", async () => {
    const run = await runCli(["compat", path("1.2.0.json"), path("1.3.0-narrowed.json")]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      [
        "## Tool surface: weather 1.3.0 (since 1.2.0)",
        "",
        "**1 breaking change needs version 2.0.0 or later**; this is 1.3.0.",
        "",
        "### Breaking changes",
        "",
        "- enum values removed: `f` (`tools[get_weather].parameters[unit].enum`)",
        "",
      ].join("\n"),
    );
    expect(run.stderr).toContain("breaking changes need version 2.0.0 or later (this is 1.3.0)");
  });

  it("exits 0 on the same change released as a major version", async () => {
    const run = await runCli(["compat", path("1.2.0.json"), path("2.0.0-narrowed.json")]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("released as 2.0.0, a major version for callers of 1.2.0");
  });

  it("exits 0 on compatible changes and lists them", async () => {
    const run = await runCli(["compat", path("1.2.0.json"), path("1.3.0-added.json")]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Compatible: callers of 1.2.0 keep working.");
    expect(run.stdout).toContain("### Compatible changes\n\n- tool `forecast` added (`tools[forecast]`)");
  });

  it("reads the released manifest out of a .tar.gz or .zip release archive", async () => {
    for (const archive of ["weather-1.2.0.tar.gz", "weather-1.2.0.zip"]) {
      const run = await runCli(["compat", path(archive), path("1.3.0-narrowed.json")]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toContain("enum values removed: `f`");
    }
  });

  it("compares tool names only against an executa.json, and says so", async () => {
    const run = await runCli(["compat", path("1.2.0.json"), path("executa.json")]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("- tool `get_weather` removed");
    expect(run.stdout).not.toContain("parameter");
    expect(run.stderr).toContain("an executa.json names tools only; parameters were not compared");
  });

  it("--json prints the changes and the verdict", async () => {
    const run = await runCli(["compat", "--json", path("1.2.0.json"), path("1.3.0-narrowed.json")]);
    expect(JSON.parse(run.stdout)).toMatchObject({
      changes: [{ kind: "breaking", path: "tools[get_weather].parameters[unit].enum" }],
      verdict: { from: "1.2.0", to: "1.3.0", needs: "major", minimum: "2.0.0", ok: false },
    });
  });

  it("exits 2 on a file without a surface", async () => {
    await write("other.json", { hello: 1 });
    const run = await runCli(["compat", path("other.json"), path("1.2.0.json")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('holds no tool surface: expected a manifest (with "tools")');
  });
});
