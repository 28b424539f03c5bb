import { PassThrough } from "node:stream";
import { createPluginServer, type PluginDefinition } from "@executa/core";
import { Args, buildPlugin, Param, Plugin, registerCodec, Tool } from "@executa/decorators";
import { IsOptional } from "class-validator";
import { afterAll, describe, expect, test } from "vitest";

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

/** Frames exchanged with a served definition on in-memory streams, one request at a time. */
function connect(definition: PluginDefinition, protocol: "mcp" | "executa") {
  const input = new PassThrough();
  const output = new PassThrough();
  createPluginServer(definition, { input, output, protocol });
  const lines: string[] = [];
  let buffered = "";
  let wake: (() => void) | undefined;
  output.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    for (let lf = buffered.indexOf("\n"); lf !== -1; lf = buffered.indexOf("\n")) {
      lines.push(buffered.slice(0, lf));
      buffered = buffered.slice(lf + 1);
    }
    wake?.();
  });
  let id = 0;
  return async (method: string, params?: unknown): Promise<Record<string, unknown>> => {
    id += 1;
    input.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    for (;;) {
      const found = lines.map((line) => JSON.parse(line)).find((frame) => frame.id === id);
      if (found) return found;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
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
    const call = connect(ledger, "mcp");
    await call("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    });
    const { result } = await call("tools/list");
    const [transfer, double] = (result as { tools: Record<string, Record<string, unknown>>[] }).tools;
    expect(transfer?.inputSchema?.properties).toEqual({
      amount: { type: "string", pattern: "^-?[0-9]+$" },
      fee: { type: "string", pattern: "^-?[0-9]+$" },
    });
    expect(double?.outputSchema).toEqual({
      type: "object",
      properties: { doubled: { type: "string", pattern: "^-?[0-9]+$" } },
      required: ["doubled"],
    });
  });

  test("reaches validation: the method gets a bigint; a string it cannot decode is -32602 naming the path", async () => {
    const call = connect(ledger, "executa");
    const done = await call("invoke", { tool: "transfer", arguments: { amount: "12345678901234567890" } });
    expect(done.result).toMatchObject({ success: true, data: { isBigint: true } });
    const refused = await call("invoke", { tool: "transfer", arguments: { amount: "12", fee: "1.5" } });
    expect(refused.error).toMatchObject({
      code: -32602,
      data: { issues: [{ path: "fee", message: expect.stringContaining("integer in decimal digits") }] },
    });
  });

  test("reaches results: its values are sent encoded", async () => {
    const call = connect(ledger, "executa");
    const done = await call("invoke", {
      tool: "transfer",
      arguments: { amount: "9007199254740993", fee: "7" },
    });
    expect(done.result).toMatchObject({ success: true, data: { total: "9007199254741000" } });
    const doubled = await call("invoke", { tool: "double", arguments: { value: "-21" } });
    expect(doubled.result).toMatchObject({ success: true, data: { doubled: "-42" } });
  });
});
