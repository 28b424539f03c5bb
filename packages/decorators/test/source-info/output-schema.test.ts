// Runs under the executa source reader (the root vitest config's executaSource plugin):
// the output schemas below come from these very classes' return types.
import { withDisplay } from "@executa/core";
import { buildPlugin, Param, Plugin, Tool } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import { startupError } from "../helpers/startup-error.js";

const base = { name: "demo", version: "1.0.0", description: "Demo." };

/** Current conditions. */
interface Conditions {
  /** Degrees Celsius. */
  temperature: number;
  units: "metric" | "imperial";
  station: string | null;
  gusts?: number;
  readings: { at: Date; value: number }[];
}

describe("a tool's output schema from its method's return type", () => {
  test("an object result: its properties, required ones, null, enums, dates and doc comments", () => {
    @Plugin(base)
    class Weather {
      @Tool({ description: "Current conditions." })
      async current(@Param("city") city: string): Promise<Conditions> {
        return { temperature: city.length, units: "metric", station: null, readings: [] };
      }
    }
    const definition = buildPlugin(Weather);
    // Built once, when first read (only MCP reads them).
    expect(definition.outputSchemas).toBe(definition.outputSchemas);
    expect(definition.outputSchemas).toEqual({
      current: {
        type: "object",
        properties: {
          temperature: { type: "number", description: "Degrees Celsius." },
          units: { type: "string", enum: ["metric", "imperial"] },
          station: { type: ["string", "null"] },
          gusts: { type: "number" },
          readings: {
            type: "array",
            items: {
              type: "object",
              properties: { at: { type: "string", format: "date-time" }, value: { type: "number" } },
              required: ["at", "value"],
            },
          },
        },
        required: ["temperature", "units", "station", "readings"],
      },
    });
  });

  test("no schema for a result that is not always an object: void, a string, an array, `T | null`, unknown", () => {
    @Plugin(base)
    class Plain {
      @Tool({ description: "Nothing." })
      nothing(): void {}
      @Tool({ description: "Text." })
      text() {
        return "text";
      }
      @Tool({ description: "A list." })
      list() {
        return [1, 2];
      }
      @Tool({ description: "Maybe." })
      maybe(): Conditions | null {
        return null;
      }
      @Tool({ description: "Anything." })
      anything(): unknown {
        return 1;
      }
    }
    expect(buildPlugin(Plain).outputSchemas).toBeUndefined();
  });

  test("display blocks are left out; a value JSON carries but the reader does not describe is unconstrained", () => {
    @Plugin(base)
    class Report {
      @Tool({ description: "A report." })
      report() {
        const data = { title: "t", extra: 1 as unknown, pair: ["a", 1] as [string, number] };
        return withDisplay(data, "# Report");
      }
    }
    expect(buildPlugin(Report).outputSchemas?.report).toEqual({
      type: "object",
      properties: { title: { type: "string" }, extra: {}, pair: {} },
      required: ["title", "extra", "pair"],
    });
  });

  test("a union of different types is anyOf its members; a union of objects as the result is the result's schema", () => {
    type Row = Partial<Record<"id" | "name", string | number>>;
    @Plugin(base)
    class Unions {
      @Tool({ description: "Rows." })
      rows(): { rows: Row[]; note: string | null | 3 } {
        return { rows: [{ id: 1, name: "a" }], note: null };
      }
      @Tool({ description: "Formats." })
      format(
        @Param("text") text: string,
      ): { formatted: string; valid: true } | { error: string; valid: false } {
        return text ? { formatted: text, valid: true } : { error: "empty", valid: false };
      }
      @Tool({ description: "Either." })
      either(@Param("text") text: string): { text: string } | string {
        return text ? { text } : text;
      }
      @Tool({ description: "Loose." })
      loose(): { value: { a: unknown } | string } {
        return { value: "x" };
      }
    }
    const schemas = buildPlugin(Unions).outputSchemas;
    const scalar = { anyOf: [{ type: "string" }, { type: "number" }] };
    expect(schemas?.rows).toEqual({
      type: "object",
      properties: {
        rows: { type: "array", items: { type: "object", properties: { id: scalar, name: scalar } } },
        note: { anyOf: [{ type: "string" }, { type: "integer", enum: [3] }, { type: "null" }] },
      },
      required: ["rows", "note"],
    });
    expect(schemas?.format).toEqual({
      type: "object",
      anyOf: [
        {
          type: "object",
          properties: { formatted: { type: "string" }, valid: { type: "boolean", enum: [true] } },
          required: ["formatted", "valid"],
        },
        {
          type: "object",
          properties: { error: { type: "string" }, valid: { type: "boolean", enum: [false] } },
          required: ["error", "valid"],
        },
      ],
    });
    // Not an object at all times: no schema. A member the reader cannot describe: unconstrained.
    expect(schemas?.either).toBeUndefined();
    expect(schemas?.loose).toEqual({ type: "object", properties: { value: {} }, required: ["value"] });
  });

  test("a value from Node's API is read with Node's types (the project's own): Buffer's text is a required string", () => {
    @Plugin(base)
    class Codec {
      @Tool({ description: "Encode." })
      encode(@Param("text") text: string) {
        return { encoded: Buffer.from(text).toString("base64"), length: text.length };
      }
    }
    expect(buildPlugin(Codec).outputSchemas?.encode).toEqual({
      type: "object",
      properties: { encoded: { type: "string" }, length: { type: "number" } },
      required: ["encoded", "length"],
    });
  });

  test("a Buffer, Map or Set in a result: UNSUPPORTED_TYPE, as JSON does not carry them as themselves", () => {
    @Plugin(base)
    class Bytes {
      @Tool({ description: "Reads." })
      read(@Param("text") text: string) {
        return { raw: { bytes: Buffer.from(text) } };
      }
    }
    expect(startupError(Bytes).message).toContain(
      "Bytes.read(): the result's TypeScript type `Buffer<ArrayBuffer>` (at read().raw.bytes) does not survive JSON: a Buffer, which JSON does not carry as itself",
    );
    @Plugin(base)
    class Tags {
      @Tool({ description: "Counts tags." })
      count() {
        return { byTag: new Map<string, number>(), seen: new Set<string>() };
      }
    }
    const error = startupError(Tags);
    expect(error.code).toBe("UNSUPPORTED_TYPE");
    expect(error.message).toContain(
      "(at count().byTag) does not survive JSON: a Map, which JSON does not carry",
    );
    expect(error.message).toContain("Fix: return plain data: strings, numbers, booleans, Date or URL");
  });

  test("a result holding a value JSON does not carry (a function, a bigint): UNSUPPORTED_TYPE naming where", () => {
    @Plugin(base)
    class Lossy {
      @Tool({ description: "Counts." })
      count() {
        return { total: 1n, label: "x" };
      }
    }
    const error = startupError(Lossy);
    expect(error.code).toBe("UNSUPPORTED_TYPE");
    expect(error.message).toContain(
      "Lossy.count(): the result's TypeScript type `bigint` (at count().total) does not survive JSON: bigint or symbol",
    );
    expect(error.message).toContain("convert a bigint to a string");
  });
});
