import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { buildExecutables } from "@executa/bundler";
import type { Manifest } from "@executa/core";
import { runBinary, runInProcess } from "@executa/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EveryForm } from "./same-manifest-fixture/plugin.js";

const run = promisify(execFile);
const entry = fileURLToPath(new URL("./same-manifest-fixture/main.ts", import.meta.url));
const cli = fileURLToPath(new URL("../../cli/bin/executa.cjs", import.meta.url));

/** The manifest a client gets from a plugin it starts, after the handshake. */
async function manifestOfProcess(command: string, args: readonly string[] = []): Promise<Manifest> {
  const client = await runBinary(command, args);
  try {
    if (!client.manifest) throw new Error(`${command} answered no manifest`);
    return client.manifest;
  } finally {
    await client.close();
  }
}

/*
 * One fixture with every type form the source reader reads (doc comments, `?`, defaults,
 * literal unions, string and numeric enums, arrays, an interface, a DTO class with
 * @Min/@Max and an undecorated initialized field, Date), with no description or type
 * option: `executa dev`, the bundle, the single executable and an in-process run under the
 * vitest plugin must all describe it alike.
 */
describe("one manifest, however the plugin is run", () => {
  const manifests: Record<string, Manifest> = {};
  let remove: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const outDir = await mkdtemp(join(tmpdir(), "executa-same-manifest-"));
    remove = () => rm(outDir, { recursive: true, force: true });
    const [dev, built, inProcess] = await Promise.all([
      run(process.execPath, [cli, "dev", entry, "--describe"]),
      // The binary for this platform only (no archives of others): a SEA build takes seconds.
      buildExecutables({ entry, outDir, quiet: true }),
      runInProcess(EveryForm),
    ]);
    manifests.dev = JSON.parse(dev.stdout) as Manifest;
    manifests.bundle = await manifestOfProcess(process.execPath, [built.bundle.path]);
    const binary = built.binaries[0];
    if (!binary) throw new Error("the build made no binary for this platform");
    manifests.binary = await manifestOfProcess(binary.path);
    if (!inProcess.manifest) throw new Error("runInProcess answered no manifest");
    manifests.inProcess = inProcess.manifest;
    await inProcess.close();
  }, 120_000);
  afterAll(() => remove?.());

  it("executa dev, the bundle, the binary and runInProcess describe the same manifest", () => {
    expect(manifests.bundle).toEqual(manifests.dev);
    expect(manifests.binary).toEqual(manifests.dev);
    expect(manifests.inProcess).toEqual(manifests.dev);
  });

  it("carries what the types and doc comments say", () => {
    const manifest = manifests.dev as Manifest;
    expect(manifest.description).toBe("Every type form the manifest reads from the source.");
    const [paint, forecast] = manifest.tools;
    const param = (tool: typeof paint, name: string) => tool?.parameters?.find((p) => p.name === name);
    expect(paint?.description).toBe("Paints a place.");
    expect(param(paint, "place")).toEqual({
      name: "place",
      type: "object",
      description: "Where to paint.",
      required: true,
      properties: {
        lat: { type: "number", description: "Latitude in degrees." },
        lon: { type: "number" },
        label: { type: "string", description: "optional" },
      },
    });
    expect(param(paint, "color")).toMatchObject({ type: "string", enum: ["red", "green"], required: true });
    // A numeric enum shows its names; the numbers they stand for are in the description.
    expect(param(paint, "level")).toMatchObject({
      type: "string",
      enum: ["Low", "High"],
      description: "Low = 0, High = 5",
    });
    expect(param(paint, "colors")).toMatchObject({
      type: "array",
      items: { type: "string", enum: ["red", "green"] },
    });
    expect(param(paint, "mood")).toMatchObject({ type: "string", enum: ["happy", "sad"], required: true });
    expect(param(paint, "units")).toMatchObject({ required: false, default: "metric" });
    expect(param(paint, "coats")).toEqual({
      name: "coats",
      type: "number",
      description: "How many coats.",
      required: false,
    });
    expect(param(paint, "at")).toMatchObject({ type: "string", required: false });
    expect(param(paint, "at")?.description).toContain("ISO 8601");
    expect(forecast?.parameters?.map((p) => [p.name, p.type, p.required])).toEqual([
      ["city", "string", true],
      ["days", "integer", false],
      ["lang", "string", false],
      ["from", "string", false],
    ]);
    expect(param(forecast, "days")).toMatchObject({ default: 3, minimum: 1, maximum: 7 });
    expect(param(forecast, "lang")).toMatchObject({ default: "en", description: "Language of the answer." });
    expect(param(forecast, "from")?.description).toBe(
      "When to start. (ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z)",
    );
  });
});
