import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "tsup";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { swcDecoratorPlugin } from "../../src/swc/esbuild-swc-plugin.js";
import { loadSwc } from "../../src/swc/resolve-swc.js";
import { tempDir } from "../helpers/temp-dir.js";

const run = promisify(execFile);
const entry = fileURLToPath(new URL("./fixture/main.ts", import.meta.url));
// The root tsconfig enables emitDecoratorMetadata, so tsup registers its own SWC plugin
// ahead of the bundler's: the recorded facts must reach the bundle all the same.
const tsconfig = fileURLToPath(new URL("../../../../tsconfig.json", import.meta.url));

describe("a bundle built through the SWC esbuild plugin", () => {
  let out: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    out = await tempDir("source-info-build");
    await build({
      entry: { bundle: entry },
      outDir: out.path,
      format: ["cjs"],
      platform: "node",
      noExternal: [/.*/],
      sourcemap: true,
      silent: true,
      config: false,
      tsconfig,
      esbuildPlugins: [swcDecoratorPlugin(loadSwc([process.cwd()]))],
    });
  }, 120_000);
  afterAll(() => out?.remove());

  it("carries the recorded source facts to run time", async () => {
    const { stdout } = await run(process.execPath, ["--enable-source-maps", join(out.path, "bundle.cjs")]);
    const [recorded, frame] = stdout.trim().split("\n");
    expect(JSON.parse(recorded ?? "")).toEqual({
      description: "Paints places.",
      methods: {
        paint: {
          description: "Paints a place.",
          parameters: [
            {
              name: "place",
              index: 0,
              optional: false,
              description: "Where.",
              schema: {
                type: "object",
                properties: {
                  lat: { type: "number", description: "Latitude in degrees." },
                  lon: { type: "number" },
                },
                required: ["lat", "lon"],
              },
              typeText: "Place",
            },
            {
              name: "colors",
              index: 1,
              optional: false,
              schema: { type: "array", items: { type: "string", enum: ["red", "green"] } },
              typeText: "Color[]",
            },
            { name: "coats", index: 2, optional: true, schema: { type: "number" }, typeText: "number" },
          ],
          returns: expect.objectContaining({ type: "object" }),
        },
      },
      // The version of the nearest package.json (here @executa/bundler's), for a class that gives none.
      packageVersion: "0.1.0",
    });
    // The source map still leads to the original file and line.
    expect(frame).toMatch(/fixture\/main\.ts:6:/);
  });

  it("keeps source map paths relative to the output folder", async () => {
    const map = JSON.parse(await readFile(join(out.path, "bundle.cjs.map"), "utf8")) as { sources: string[] };
    const plugin = map.sources.find((source) => source.endsWith("fixture/plugin.ts"));
    expect(plugin).toBeDefined();
    expect(plugin?.startsWith("/")).toBe(false);
    expect(map.sources.some((source) => source.includes("executa-source"))).toBe(false);
  });
});
