// What a zod schema's JSON Schema says beyond the manifest's fields (a pattern, exclusive
// bounds, item counts, a const) reaches every projection: as a field where the dialect has
// one, else in the description; strict response_format asks with the keywords it accepts.
import { schemaOfStandard } from "@executa/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { manifestParameters } from "../../../src/schema/projections/manifest-parameters.js";
import { responseFormatSchema } from "../../../src/schema/projections/response-format.js";

const Expense = z.strictObject({
  code: z.string().regex(/^[A-Z]{3}$/),
  amount: z.number().positive(),
  tags: z.array(z.string()).min(1).max(3),
  kind: z.literal("expense"),
});

describe("a Standard Schema's keywords in the projections", () => {
  const schema = schemaOfStandard(Expense, { io: "input" });

  test("the manifest: the const as a one-value enum, the rest in the description", () => {
    expect(manifestParameters(schema)).toEqual([
      { name: "code", type: "string", description: "matching ^[A-Z]{3}$", required: true },
      { name: "amount", type: "number", description: "above 0", required: true },
      { name: "tags", type: "array", items: { type: "string" }, description: "1 to 3 items", required: true },
      { name: "kind", type: "string", required: true, enum: ["expense"] },
    ]);
  });

  test("strict response_format: pattern, exclusive bounds, item counts and const as keywords", () => {
    expect(responseFormatSchema(schema, true).properties).toEqual({
      code: { type: "string", pattern: "^[A-Z]{3}$" },
      amount: { type: "number", exclusiveMinimum: 0 },
      tags: { type: "array", minItems: 1, maxItems: 3, items: { type: "string" } },
      kind: { type: "string", const: "expense" },
    });
  });
});
