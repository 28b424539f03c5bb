import { Args, buildPlugin, Param, Plugin, registerCodec, Tool } from "@executa/decorators";
import { IsOptional } from "class-validator";
import { afterAll, describe, expect, test } from "vitest";
import { mcpTool } from "../helpers/mcp-tool.js";
import { serveInMemory } from "../helpers/serve-in-memory.js";

// An author's own codec, registered in this one module: a bigint travels as its decimal
// digits. It reaches the manifest, MCP's schemas, the checking of arguments and results.

const DIGITS = /^-?[0-9]+$/;
const unregister = registerCodec<bigint>({
  name: "bigint",
  typeName: "bigint",
  reflectedAs: BigInt,
  jsonSchema: { type: "string", pattern: "^-?[0-9]+$" },
  description: "integer in decimal digits, e.g. 12345678901234567890",
  decode: (text) => (DIGITS.test(text.trim()) ? BigInt(text.trim()) : undefined),
  encode: (value) => value.toString(),
  is: (value): value is bigint => typeof value === "bigint",
});
afterAll(unregister);

class TransferArgs {
  amount!: bigint;
  @IsOptional() fee?: bigint;
}

@Plugin({ name: "ledger", version: "1.0.0", description: "Moves money." })
class Ledger {
  @Tool({ description: "Transfer an amount." })
  transfer(@Args() args: TransferArgs) {
    return { total: args.amount + (args.fee ?? 0n), isBigint: typeof args.amount === "bigint" };
  }

  @Tool({ description: "Doubles a number." })
  double(@Param("value") value: bigint) {
    return { doubled: value * 2n };
  }
}

const ledger = buildPlugin(Ledger);

describe("a codec an author registers", () => {
  test("reaches the manifest: a string, its description saying what to send", () => {
    const [transfer, double] = ledger.manifest.tools;
    expect(transfer?.parameters).toEqual([
      {
        name: "amount",
        type: "string",
        description: "integer in decimal digits, e.g. 12345678901234567890",
        required: true,
      },
      {
        name: "fee",
        type: "string",
        description: "integer in decimal digits, e.g. 12345678901234567890",
        required: false,
      },
    ]);
    expect(double?.parameters?.[0]).toMatchObject({ name: "value", type: "string", required: true });
  });

  test("reaches MCP: its JSON Schema in inputSchema and outputSchema", async () => {
    const [transfer, double] = await Promise.all([mcpTool(ledger, "transfer"), mcpTool(ledger, "double")]);
    expect(transfer.inputSchema.properties).toEqual({
      amount: { type: "string", pattern: "^-?[0-9]+$" },
      fee: { type: "string", pattern: "^-?[0-9]+$" },
    });
    expect(double.outputSchema).toEqual({
      type: "object",
      properties: { doubled: { type: "string", pattern: "^-?[0-9]+$" } },
      required: ["doubled"],
    });
  });

  test("reaches validation: the method gets a bigint; a string it cannot decode is -32602 naming the path", async () => {
    const server = serveInMemory(ledger, "executa");
    const done = await server.request("invoke", {
      tool: "transfer",
      arguments: { amount: "12345678901234567890" },
    });
    expect(done.result).toMatchObject({ success: true, data: { isBigint: true } });
    const refused = await server.request("invoke", {
      tool: "transfer",
      arguments: { amount: "12", fee: "1.5" },
    });
    expect(refused.error).toMatchObject({
      code: -32602,
      data: { issues: [{ path: "fee", message: expect.stringContaining("integer in decimal digits") }] },
    });
  });

  test("reaches results: its values are sent encoded", async () => {
    const server = serveInMemory(ledger, "executa");
    const done = await server.request("invoke", {
      tool: "transfer",
      arguments: { amount: "9007199254740993", fee: "7" },
    });
    expect(done.result).toMatchObject({ success: true, data: { total: "9007199254741000" } });
    const doubled = await server.request("invoke", { tool: "double", arguments: { value: "-21" } });
    expect(doubled.result).toMatchObject({ success: true, data: { doubled: "-42" } });
  });
});
