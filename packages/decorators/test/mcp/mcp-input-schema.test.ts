import { Args, buildPlugin, Plugin, Tool } from "@executa/decorators";
import { Type } from "class-transformer";
import { IsEmail, IsOptional, IsString, MaxLength, Min } from "class-validator";
import { describe, expect, test } from "vitest";
import { mcpTool } from "../helpers/mcp-tool.js";

// MCP's inputSchema is projected from the tool's schema value, not from the Executa
// manifest: what the manifest can only say in text (formats, nested required fields,
// nested bounds, recursion) reaches an MCP client as JSON Schema it can check against.

enum Priority {
  Low,
  Medium,
  High,
}

class Address {
  /** Street and number. */
  @IsString() @MaxLength(80) street!: string;
  @IsOptional() @IsString() zip?: string;
}

class LineItem {
  @IsString() label!: string;
  @Min(0) unitPrice!: number;
}

class CategoryNode {
  @IsString() name!: string;
  @Type(() => CategoryNode) children?: CategoryNode[];
}

class ExpenseArgs {
  @IsString() @MaxLength(100) title!: string;
  @IsEmail() payer!: string;
  @Type(() => Address) address!: Address;
  @Type(() => LineItem) items!: LineItem[];
  spentAt!: Date;
  receipt?: URL;
  priority: Priority = Priority.Medium;
  @Type(() => CategoryNode) category?: CategoryNode;
}

@Plugin({ name: "expenses", version: "1.0.0", description: "Tracks expenses." })
class Expenses {
  @Tool({ description: "Record an expense." })
  record(@Args() args: ExpenseArgs) {
    return { title: args.title };
  }
}

describe("MCP inputSchema of a DTO tool", async () => {
  const schema = (await mcpTool(buildPlugin(Expenses), "record")).inputSchema;

  test("refuses unknown arguments as binding does, and lists the required ones", () => {
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(["title", "payer", "address", "items", "spentAt"]);
  });

  test("a nested DTO: its own required fields, bounds and doc comments", () => {
    expect(schema.properties.address).toEqual({
      type: "object",
      properties: {
        street: { type: "string", maxLength: 80, description: "Street and number." },
        zip: { type: "string" },
      },
      required: ["street"],
      additionalProperties: false,
    });
    expect(schema.properties.items).toEqual({
      type: "array",
      items: {
        type: "object",
        properties: { label: { type: "string" }, unitPrice: { type: "number", minimum: 0 } },
        required: ["label", "unitPrice"],
        additionalProperties: false,
      },
    });
  });

  test("a Date and a URL carry their formats; @MaxLength its bound", () => {
    expect(schema.properties.spentAt).toEqual({ type: "string", format: "date-time" });
    expect(schema.properties.receipt).toEqual({ type: "string", format: "uri" });
    expect(schema.properties.title).toEqual({ type: "string", maxLength: 100 });
  });

  test("a numeric enum by its member names, its default too, the numbers in the description", () => {
    expect(schema.properties.priority).toEqual({
      type: "string",
      enum: ["Low", "Medium", "High"],
      default: "Medium",
      description: "Low = 0, Medium = 1, High = 2",
    });
  });

  test("a recursive DTO is written once, in $defs, and referred to by $ref wherever it occurs", () => {
    const node = {
      type: "object",
      properties: {
        name: { type: "string" },
        children: { type: "array", items: { $ref: "#/$defs/CategoryNode" } },
      },
      required: ["name"],
      additionalProperties: false,
    };
    expect(schema.properties.category).toEqual({ $ref: "#/$defs/CategoryNode" });
    expect(schema.$defs).toEqual({ CategoryNode: node });
    // One definition of the class in the whole input schema.
    expect(JSON.stringify(schema).match(/"children"/g)).toHaveLength(1);
  });
});
