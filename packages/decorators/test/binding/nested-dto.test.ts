import { Args, buildPlugin, manifestOf, Plugin, Tool } from "@executa/decorators";
import { Type } from "class-transformer";
import { IsDefined, IsEmail, IsInt, IsString, Min, MinLength } from "class-validator";
import { describe, expect, test } from "vitest";
import { callTool, invalidParams } from "../helpers/invoke.js";

// Nested DTOs whose class reflection or class-transformer's @Type names, without
// @ValidateNested(): every object the schema gives a class becomes an instance of it and
// is held to that class's rules, at every depth, recursion included.

class Payer {
  @IsEmail() email!: string;
  name?: string;
  get domain(): string {
    return this.email.slice(this.email.indexOf("@") + 1);
  }
}

class LineItem {
  @IsString() label!: string;
  @Min(0) unitPrice!: number;
  @IsInt() @Min(1) quantity = 1;
  get total(): number {
    return this.unitPrice * this.quantity;
  }
}

class CategoryNode {
  @IsString() @MinLength(1) name!: string;
  weight?: number;
  @Type(() => CategoryNode) children?: CategoryNode[];
  depth(): number {
    return 1 + Math.max(0, ...(this.children ?? []).map((child) => child.depth()));
  }
}

class ExpenseArgs {
  @IsDefined() payer!: Payer;
  @Type(() => LineItem) items!: LineItem[];
  @Type(() => CategoryNode) category?: CategoryNode;
}

@Plugin({ name: "expenses", version: "1.0.0", description: "Tracks expenses." })
class Expenses {
  @Tool({ description: "Record an expense." })
  record(@Args() args: ExpenseArgs) {
    const deepest = args.category?.children?.[0]?.children?.[0];
    return {
      payerIsInstance: args.payer instanceof Payer,
      domain: args.payer.domain,
      itemsAreInstances: args.items.every((item) => item instanceof LineItem),
      totals: args.items.map((item) => item.total),
      depth: args.category?.depth(),
      deepestIsInstance: deepest instanceof CategoryNode,
    };
  }
}

const expenses = buildPlugin(Expenses);

const leaf = (name: string) => ({ name });
const VALID = {
  payer: { email: "ana@example.com", name: "Ana" },
  items: [
    { label: "Taxi", unitPrice: 12.5 },
    { label: "Lunch", unitPrice: 9, quantity: "2" },
  ],
  category: { name: "Travel", children: [{ name: "Transport", children: [leaf("Taxi")] }] },
};

/** VALID with the deepest category node (depth 3) replaced. */
function withDeepest(node: Record<string, unknown>) {
  return { ...VALID, category: { name: "Travel", children: [{ name: "Transport", children: [node] }] } };
}

describe("nested DTOs", () => {
  test("become instances of their classes at every depth: getters and methods work", async () => {
    await expect(callTool(expenses, "record", VALID)).resolves.toEqual({
      payerIsInstance: true,
      domain: "example.com",
      itemsAreInstances: true,
      totals: [12.5, 18],
      depth: 3,
      deepestIsInstance: true,
    });
  });

  test.each([
    ["@IsEmail() of a nested object", { ...VALID, payer: { email: "x" } }, "payer.email", /email/],
    [
      "@Min(0) of an array element",
      { ...VALID, items: [VALID.items[0], { label: "Refund", unitPrice: -5 }] },
      "items.1.unitPrice",
      /must be at least 0, got -5/,
    ],
    [
      "an unknown key at depth 3",
      withDeepest({ name: "Taxi", colour: "red" }),
      "category.children.0.children.0.colour",
      /unknown argument/,
    ],
    [
      "a missing required field at depth 3",
      withDeepest({}),
      "category.children.0.children.0.name",
      /is required/,
    ],
    [
      "a wrong type at depth 3",
      withDeepest({ name: "Taxi", weight: "heavy" }),
      "category.children.0.children.0.weight",
      /expected a number/,
    ],
    [
      "a length rule at depth 3",
      withDeepest({ name: "" }),
      "category.children.0.children.0.name",
      /at least 1 characters/,
    ],
    [
      "a recursion level below the manifest's expansion",
      withDeepest({ name: "Taxi", children: [{ name: "Night", children: [{ name: "x", extra: 1 }] }] }),
      "category.children.0.children.0.children.0.children.0.extra",
      /unknown argument/,
    ],
  ])("%s is -32602 naming its path", async (_name, args, path, message) => {
    const error = await invalidParams(expenses, "record", args);
    expect((error.data as { issues: unknown[] }).issues).toEqual([
      expect.objectContaining({ path, message: expect.stringMatching(message) }),
    ]);
  });

  test("a nested field's bound is shown in the manifest", () => {
    const items = manifestOf(Expenses).tools[0]?.parameters?.find((parameter) => parameter.name === "items");
    expect(items?.items?.properties?.unitPrice).toMatchObject({ type: "number", description: "at least 0" });
  });
});
