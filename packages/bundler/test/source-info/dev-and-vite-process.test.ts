import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { sourceCommand } from "../../src/source/describe-source.js";
import { executaSource } from "../../src/vite/index.js";

const run = promisify(execFile);
const fixture = (file: string) => fileURLToPath(new URL(`./fixture/${file}`, import.meta.url));

describe("source facts outside the bundle", () => {
  it("are recorded when running from source (`executa dev`: dist/register.js, run `pnpm build` first)", async () => {
    const { command, args } = sourceCommand(fixture("main.ts"));
    const { stdout } = await run(command, args);
    const [recorded, frame] = stdout.trim().split("\n");
    const info = JSON.parse(recorded ?? "");
    expect(info.description).toBe("Paints places.");
    expect(info.methods.paint.parameters.map((p: { name: string }) => p.name)).toEqual([
      "place",
      "colors",
      "coats",
    ]);
    expect(info.methods.paint.parameters[1].schema).toEqual({
      type: "array",
      items: { type: "string", enum: ["red", "green"] },
    });
    expect(frame).toMatch(/fixture\/main\.ts:6:/);
  }, 60_000);

  it("are inserted by the vite plugin before other plugins compile TypeScript, lines unchanged", async () => {
    const plugin = executaSource();
    expect(plugin.enforce).toBe("pre");
    const file = fixture("plugin.ts");
    const code = await readFile(file, "utf8");
    const result = plugin.transform(code, `${file}?v=1`);
    expect(result?.map).toBeNull();
    expect(result?.code.split("\n")).toHaveLength(code.split("\n").length);
    expect(result?.code).toContain('.set(Painter, {"description":"Paints places."');
    expect(plugin.transform(code, "/project/node_modules/pkg/plugin.ts")).toBeNull();
    expect(plugin.transform(code, "/project/src/plugin.js")).toBeNull();
    expect(plugin.transform(await readFile(fixture("types.ts"), "utf8"), fixture("types.ts"))).toBeNull();
    expect(executaSource({ exclude: /plugin\.ts$/ }).transform(code, file)).toBeNull();
    expect(executaSource({ exclude: (path) => path === file }).transform(code, file)).toBeNull();
  }, 60_000);
});
