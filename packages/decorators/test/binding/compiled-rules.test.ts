import { Args, buildPlugin, Plugin, Tool } from "@executa/decorators";
import {
  ArrayNotEmpty,
  IsDefined,
  IsOptional,
  IsString,
  Matches,
  registerDecorator,
  ValidateIf,
  ValidateNested,
} from "class-validator";
import { describe, expect, test } from "vitest";
import { callTool, invalidParams } from "../helpers/invoke.js";

// The compiled rules decide as class-validator does (conditions, `each`, @IsDefined,
// custom constraints), and class-validator words what failed.

function IsEven(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: "isEven",
      target: target.constructor,
      propertyName: propertyName as string,
      validator: { validate: (value: unknown) => typeof value === "number" && value % 2 === 0 },
      options: { message: "$property must be even" },
    });
}

class Order {
  @IsString() @Matches(/^[A-Z]{3}$/, { message: "currency must be three capitals" }) currency!: string;
  @IsOptional() @Matches(/^#/) ref?: string;
  @IsDefined() @IsEven() pairs!: number;
  @ArrayNotEmpty() @Matches(/^[a-z]+$/, { each: true }) tags!: string[];
  @IsOptional() @IsString() kind?: string;
  @ValidateIf((order: Order) => order.kind === "gift") @Matches(/\S/) note?: string;
}

class Loose {
  @IsString() label!: string;
}

class Bundle {
  // No @Type: the source reader names the elements' class (without it, a startup error).
  @ValidateNested({ each: true }) parts!: Loose[];
}

@Plugin({ name: "shop", version: "1.0.0", description: "Takes orders." })
class Shop {
  @Tool({ description: "Order." }) order(@Args() order: Order) {
    return { currency: order.currency };
  }

  @Tool({ description: "Bundle." }) bundle(@Args() bundle: Bundle) {
    return { instances: bundle.parts.every((part) => part instanceof Loose) };
  }
}

const shop = buildPlugin(Shop);
const VALID = { currency: "EUR", pairs: 2, tags: ["a", "b"] };

describe("compiled class-validator rules", () => {
  test.each([
    ["the minimal order", VALID],
    ["an optional rule on an absent value", { ...VALID, ref: undefined }],
    ["a @ValidateIf whose condition is false", { ...VALID, kind: "plain", note: "   " }],
    ["a @ValidateIf whose condition holds", { ...VALID, kind: "gift", note: "Enjoy" }],
  ])("accept %s", async (_name, args) => {
    await expect(callTool(shop, "order", args)).resolves.toEqual({ currency: "EUR" });
  });

  test.each([
    ["a custom message", { ...VALID, currency: "eur" }, "currency", "must be three capitals"],
    ["an optional rule on a present value", { ...VALID, ref: "x" }, "ref", /must match/],
    ["a registered constraint", { ...VALID, pairs: 3 }, "pairs", "must be even"],
    [
      "an `each` rule on one element",
      { ...VALID, tags: ["a", "B"] },
      "tags",
      /each value in tags must match/,
    ],
    ["a @ValidateIf whose condition holds", { ...VALID, kind: "gift", note: " " }, "note", /must match/],
  ])("refuse %s, in class-validator's words", async (_name, args, path, message) => {
    const error = await invalidParams(shop, "order", args);
    expect((error.data as { issues: unknown[] }).issues).toEqual([
      expect.objectContaining({
        path,
        message: typeof message === "string" ? message : expect.stringMatching(message),
      }),
    ]);
  });

  test("@ValidateNested on elements whose class only the source names: instances, each checked", async () => {
    await expect(callTool(shop, "bundle", { parts: [{ label: "x" }] })).resolves.toEqual({ instances: true });
    const error = await invalidParams(shop, "bundle", { parts: [{ label: "x" }, { label: 5 }] });
    expect((error.data as { issues: unknown[] }).issues).toEqual([
      expect.objectContaining({ path: "parts.1.label", message: expect.stringMatching(/string/) }),
    ]);
  });
});
