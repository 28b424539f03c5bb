import { PARAMETER_TYPE_NAMES, PARAMETER_TYPES } from "@executa/core";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SchemaReader } from "../../src/source-info/schema-of-type.js";
import { sourceProject } from "./source-files.js";

type FlagsName = keyof typeof ts.TypeFlags;

/** The parameter types core's table maps from TypeScript type flags, with the flags' names. */
const FLAGGED = PARAMETER_TYPE_NAMES.flatMap((type) => {
  const flags = PARAMETER_TYPES[type].typeScriptFlags;
  return flags === undefined ? [] : [{ type, flags: flags as FlagsName }];
});

/** TypeScript types (as written) that carry each flags member: plain, literal, intrinsic, enum member. */
const SAMPLES: Partial<Record<FlagsName, readonly string[]>> = {
  StringLike: ["string", '"metric"', "Uppercase<string>", "Unit.C"],
  NumberLike: ["number", "2.5"],
  BooleanLike: ["boolean", "true"],
};
const WRITTEN = Object.values(SAMPLES).flat();

describe("the schema reader maps primitive types by core's typeScriptFlags", () => {
  let project: Awaited<ReturnType<typeof sourceProject>>;
  let types: Map<string, ts.Type>;
  let reader: SchemaReader;

  beforeAll(async () => {
    const aliases = WRITTEN.map((written, index) => `export type Sample${index} = ${written};`);
    project = await sourceProject({ "samples.ts": `export enum Unit { C = "c" }\n${aliases.join("\n")}\n` });
    const program = ts.createProgram([project.path("samples.ts")], {
      strict: true,
      lib: ["lib.es2023.d.ts"],
    });
    const checker = program.getTypeChecker();
    const file = program.getSourceFile(project.path("samples.ts"));
    const symbols = file ? checker.getExportsOfModule(checker.getSymbolAtLocation(file) as ts.Symbol) : [];
    types = new Map(
      WRITTEN.map((written, index) => {
        const symbol = symbols.find((found) => found.name === `Sample${index}`) as ts.Symbol;
        return [written, checker.getDeclaredTypeOfSymbol(symbol)];
      }),
    );
    reader = new SchemaReader(ts, checker, program, () => undefined);
  }, 60_000);
  afterAll(() => project?.remove());

  it("names real ts.TypeFlags members, one sample set each", () => {
    expect(FLAGGED.map(({ flags }) => flags)).toEqual(Object.keys(SAMPLES));
    for (const { flags } of FLAGGED) expect(typeof ts.TypeFlags[flags]).toBe("number");
  });

  describe.each(FLAGGED)("$type, from types with $flags", ({ type, flags }) => {
    it.each(SAMPLES[flags] ?? [])("%s", (written) => {
      const sample = types.get(written) as ts.Type;
      expect(sample.flags & ts.TypeFlags[flags]).not.toBe(0);
      expect(reader.read(sample, { depth: 0, seen: [], path: "value" }).schema).toMatchObject({ type });
    });
  });
});
