import { Args, buildPlugin, manifestOf, Plugin, Tool } from "@executa/decorators";
import { Type } from "class-transformer";
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsAlpha,
  IsEmail,
  IsInt,
  IsNegative,
  IsNotEmpty,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Matches,
  Min,
} from "class-validator";
import { describe, expect, test } from "vitest";
import { callTool, invalidParams } from "../helpers/invoke.js";
import { mcpTool } from "../helpers/mcp-tool.js";

// Every class-validator rule a tool enforces is shown: as a JSON Schema keyword where one
// exists (MCP carries it), in the description where the dialect has none (the manifest),
// at every depth (a nested DTO's fields, array elements with `each: true`).

class Payer {
  @IsEmail() email!: string;
  @IsUUID("4") account!: string;
}

class LineItem {
  @IsPositive() unitPrice!: number;
  @Matches(/^[A-Z]{3}$/) code!: string;
}

class Label {
  @IsString() id!: string;
  @IsString() text!: string;
}

class ExpenseArgs {
  @IsNegative() refund!: number;
  @Matches(/^expense/i) title!: string;
  @IsUrl() receipt!: string;
  @IsAlpha() category!: string;
  @ArrayMinSize(1) @ArrayMaxSize(3) @ArrayUnique() @IsString({ each: true }) tags!: string[];
  @IsInt({ each: true }) @Min(0, { each: true }) scores!: number[];
  @IsEmail({}, { each: true }) cc!: string[];
  @ArrayMinSize(2)
  @ArrayNotEmpty()
  @IsString({ each: true })
  @Matches("^[a-z]+$", "i", { each: true })
  words!: string[];
  @IsNotEmpty() @IsString() memo!: string;
  @Type(() => Payer) payer!: Payer;
  @Type(() => LineItem) items!: LineItem[];
  // Unique by a key JSON Schema cannot name: said in words.
  @ArrayUnique((label: Label) => label.id) @Type(() => Label) labels!: Label[];
}

@Plugin({ name: "expenses", version: "1.0.0", description: "Tracks expenses." })
class Expenses {
  @Tool({ description: "Record an expense." })
  record(@Args() args: ExpenseArgs) {
    return { email: args.payer.email, cc: args.cc, price: args.items[0]?.unitPrice };
  }
}

const good = {
  refund: -5,
  title: "Expense: lunch",
  receipt: "https://example.com/r/1",
  category: "food",
  tags: ["a", "b"],
  scores: [0, 3],
  cc: ["a@example.com"],
  words: ["Lunch", "out"],
  memo: "team",
  payer: { email: "payer@example.com", account: "4b3e2a1c-9d8f-4e7a-8b6c-5d4e3f2a1b0c" },
  items: [{ unitPrice: 12.5, code: "EUR" }],
  labels: [
    { id: "a", text: "A" },
    { id: "b", text: "A" },
  ],
};

describe("class-validator rules reach the schema value", async () => {
  const definition = buildPlugin(Expenses);
  const { properties } = (await mcpTool(definition, "record")).inputSchema;

  test("MCP inputSchema: each rule with a keyword as that keyword, at every depth", () => {
    expect(properties.refund).toEqual({ type: "number", exclusiveMaximum: 0 });
    expect(properties.tags).toEqual({
      type: "array",
      items: { type: "string" },
      minItems: 1,
      maxItems: 3,
      uniqueItems: true,
    });
    expect(properties.scores).toEqual({ type: "array", items: { type: "integer", minimum: 0 } });
    expect(properties.cc).toEqual({ type: "array", items: { type: "string", format: "email" } });
    const payer = properties.payer as { properties: Record<string, unknown> };
    expect(payer.properties.email).toEqual({ type: "string", format: "email" });
    expect(payer.properties.account).toEqual({
      type: "string",
      format: "uuid",
      description: "UUID version 4",
    });
    const items = properties.items as { items: { properties: Record<string, unknown> } };
    expect(items.items.properties.unitPrice).toEqual({ type: "number", exclusiveMinimum: 0 });
    expect(items.items.properties.code).toEqual({ type: "string", pattern: "^[A-Z]{3}$" });
  });

  test("MCP inputSchema: a rule without a keyword is said in the description", () => {
    // A flag JSON Schema cannot express; `uri` would make the value a URL; no keyword for @IsAlpha.
    expect(properties.title).toEqual({ type: "string", description: "matching /^expense/i" });
    expect(properties.receipt).toEqual({ type: "string", description: "a URL" });
    expect(properties.category).toEqual({ type: "string", description: "checked by @IsAlpha()" });
    expect(properties.memo).toEqual({ type: "string", description: "not empty" });
    // @ArrayUnique with a selector: unique by a derived key, which no keyword says.
    expect(properties.labels).toMatchObject({ type: "array", description: "unique elements" });
    expect(properties.labels).not.toHaveProperty("uniqueItems");
    // The tighter of two counts; a string pattern with its modifiers, on the elements.
    expect(properties.words).toEqual({
      type: "array",
      items: { type: "string", description: "matching /^[a-z]+$/i" },
      minItems: 2,
    });
  });

  test("the manifest says in the description what it has no field for", () => {
    const parameters = manifestOf(Expenses).tools[0]?.parameters ?? [];
    const described = Object.fromEntries(
      parameters.map((parameter) => [parameter.name, parameter.description]),
    );
    expect(described).toMatchObject({
      refund: "below 0",
      title: "matching /^expense/i",
      receipt: "a URL",
      tags: "1 to 3 items; unique elements",
      scores: "each: at least 0",
      cc: "each: format email",
      labels: "unique elements",
    });
    const items = parameters.find((parameter) => parameter.name === "items");
    expect(items?.items?.properties).toEqual({
      unitPrice: { type: "number", description: "above 0" },
      code: { type: "string", description: "matching ^[A-Z]{3}$" },
    });
  });

  test("the rules are enforced at invoke, formats without a codec passed on as strings", async () => {
    expect(await callTool(definition, "record", good)).toEqual({
      email: "payer@example.com",
      cc: ["a@example.com"],
      price: 12.5,
    });
    const nested = await invalidParams(definition, "record", {
      ...good,
      payer: { ...good.payer, email: "x" },
    });
    expect(JSON.stringify(nested.data)).toContain("payer.email");
    const price = await invalidParams(definition, "record", {
      ...good,
      items: [{ unitPrice: -5, code: "EUR" }],
    });
    expect(JSON.stringify(price.data)).toContain("unitPrice");
  });

  test("uniqueItems is enforced at invoke, naming the list and the repeated element", async () => {
    const repeated = await invalidParams(definition, "record", { ...good, tags: ["a", "b", "a"] });
    expect(repeated.data).toMatchObject({
      issues: [{ path: "tags", message: "must have unique elements: element 2 repeats element 0" }],
    });
    // A selector's key is class-validator's to check: a repeated id, with different text.
    const labels = await invalidParams(definition, "record", {
      ...good,
      labels: [
        { id: "a", text: "A" },
        { id: "a", text: "B" },
      ],
    });
    expect(JSON.stringify(labels.data)).toContain("labels");
  });
});
