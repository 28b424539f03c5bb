import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { SOURCE_INFO_KEY } from "@executa/core/internal";
import { describe, expect, it } from "vitest";
import {
  emitSourceInfo,
  SOURCE_INFO_SYMBOL_KEY,
  sourceInfoStatement,
} from "../../src/source-info/emit-source-info.js";
import { SourceInfoReader } from "../../src/source-info/source-info-reader.js";
import { loadSwc } from "../../src/swc/resolve-swc.js";
import { decoratorTransformOptions } from "../../src/swc/transform-options.js";
import { sourceProject } from "./source-files.js";

const run = promisify(execFile);

// Real (no-op) decorators: the compiled module runs.
const SOURCE = `const Plugin = (_options?: object): ClassDecorator => () => {};
const Tool = (): MethodDecorator => () => {};
const registry = () => (globalThis as any)[Symbol.for("executa.source")] as WeakMap<object, unknown>;

/** Weather from Open-Meteo. */
@Plugin({ name: "weather" })
export class Weather {
  /** Current conditions. */
  @Tool()
  getWeather(/** City name. */ city: string, units: "metric" | "imperial" = "metric") {
    return city + units;
  }
}
// Top-level code right below the class (a serve(Weather)) already sees the record.
console.log(JSON.stringify(registry().get(Weather)));
export function failHere(): never {
  throw new Error("line 17");
}
try { failHere(); } catch (error) { console.log((error as Error).stack?.split("\\n")[1]); }
`;

describe("emitted source info", () => {
  it("uses core's registry key", () => {
    expect(Symbol.for(SOURCE_INFO_SYMBOL_KEY)).toBe(SOURCE_INFO_KEY);
    expect(sourceInfoStatement("A", { description: "x" })).toBe(
      ';(globalThis[Symbol.for("executa.source")] ??= new WeakMap()).set(A, {"description":"x"});',
    );
  });

  it("inserts each statement after its class's closing brace, on the same line", () => {
    const text = "class A {\n}\nconst x = 1;\nclass B {}\n";
    const out = emitSourceInfo(text, [
      { name: "A", end: text.indexOf("}") + 1, info: {} },
      { name: "B", end: text.lastIndexOf("}") + 1, info: {} },
    ]);
    const lines = out.split("\n");
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/^\};\(globalThis.*\.set\(A, \{\}\);$/);
    expect(lines[2]).toBe("const x = 1;");
    expect(lines[3]).toMatch(/^class B \{\};\(globalThis.*\.set\(B, \{\}\);$/);
  });

  it("compiled with the bundler's SWC transform, records the class before the module's next statement runs", async () => {
    const project = await sourceProject({ "weather.ts": SOURCE });
    try {
      const file = project.path("weather.ts");
      const transformed = new SourceInfoReader().transform(file, await readFile(file, "utf8")).code;
      const original = SOURCE.split("\n");
      expect(
        transformed.split("\n").map((line, index) => line.startsWith(original[index] ?? "\0")),
      ).not.toContain(false);
      const swc = loadSwc([process.cwd()]);
      const { code } = await swc.transform(
        transformed,
        decoratorTransformOptions(file, { sourceMaps: "inline" }),
      );
      await writeFile(project.path("weather.mjs"), code);
      const { stdout } = await run(process.execPath, ["--enable-source-maps", project.path("weather.mjs")]);
      const [recorded, frame] = stdout.trim().split("\n");
      expect(JSON.parse(recorded ?? "")).toEqual({
        description: "Weather from Open-Meteo.",
        methods: {
          getWeather: {
            description: "Current conditions.",
            parameters: [
              {
                name: "city",
                index: 0,
                optional: false,
                description: "City name.",
                schema: { type: "string" },
                typeText: "string",
              },
              {
                name: "units",
                index: 1,
                optional: true,
                default: "metric",
                schema: { type: "string", enum: ["metric", "imperial"] },
                typeText: '"metric" | "imperial"',
              },
            ],
            returns: { type: "string" },
          },
        },
      });
      // Line numbers of the original code are unchanged.
      expect(frame).toContain("weather.ts:17:");
    } finally {
      await project.remove();
    }
  }, 60_000);
});
