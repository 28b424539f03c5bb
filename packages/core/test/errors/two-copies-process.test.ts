import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// Core's two builds, as a process gets them when one package requires it and another
// imports it: two copies of every class. Error identity must hold across them.
type Core = typeof import("../../src/index.js");
const require = createRequire(import.meta.url);
const cjs = require("../../dist/index.cjs") as Core;
// A computed specifier: the built file is loaded at run time, not resolved when type-checking.
const esmBuild = new URL("../../dist/index.js", import.meta.url).href;
const esm = (await import(esmBuild)) as Core;

describe("errors made by another copy of @executa/core", () => {
  it("are two copies (the premise of this test)", () => {
    expect(cjs.RpcError).not.toBe(esm.RpcError);
  });

  it("are still RpcErrors, with their code", () => {
    const error = new cjs.RpcError(-32025, "too large");
    expect(error instanceof esm.RpcError).toBe(true);
    expect(new esm.RpcError(-32009, "declined") instanceof cjs.RpcError).toBe(true);
  });

  it("keep their family and the classes between", () => {
    const storage = new cjs.StorageError(-32025, "value too large");
    expect(storage instanceof esm.StorageError).toBe(true);
    expect(storage instanceof esm.CapabilityError).toBe(true);
    expect(storage instanceof esm.RpcError).toBe(true);
    expect(storage instanceof esm.SamplingError).toBe(false);
    expect(new cjs.ToolTimeoutError("slow", 10) instanceof esm.ToolTimeoutError).toBe(true);
  });

  it("a ToolError is a ToolError, and nothing else is", () => {
    expect(new cjs.ToolError("city not found") instanceof esm.ToolError).toBe(true);
    expect(new cjs.ToolError("x") instanceof esm.RpcError).toBe(false);
    expect(new Error("plain") instanceof esm.RpcError).toBe(false);
    expect(new Error("plain") instanceof esm.ToolError).toBe(false);
    expect({ code: -32000 } instanceof esm.RpcError).toBe(false);
    expect((null as unknown) instanceof esm.RpcError).toBe(false);
  });

  it("a coded error is one of its class and a CodedError in the other copy", () => {
    const conversion = new cjs.SchemaConversionError("NOT_AN_OBJECT", "a string schema", "use an object");
    expect(conversion instanceof esm.SchemaConversionError).toBe(true);
    expect(conversion instanceof esm.CodedError).toBe(true);
    expect(conversion instanceof esm.NoInvokeContextError).toBe(false);
    expect(new esm.NoInvokeContextError() instanceof cjs.NoInvokeContextError).toBe(true);
    expect(new esm.NoInvokeContextError() instanceof cjs.CodedError).toBe(true);
    expect(new cjs.ToolError("x") instanceof esm.CodedError).toBe(false);
  });

  it("a server of one copy answers a handler's error from the other with its code", async () => {
    const { PassThrough } = await import("node:stream");
    const input = new PassThrough();
    const output = new PassThrough();
    const server = esm.createPluginServer(
      {
        manifest: {
          name: "two-copies",
          version: "1.0.0",
          description: "Fixture.",
          tools: [
            { name: "declined", description: "Fails as the host declined.", parameters: [] },
            { name: "expected", description: "Fails as expected.", parameters: [] },
          ],
        },
        handlers: {
          declined: () => {
            throw new cjs.RpcError(-32009, "the user declined the sampling request");
          },
          expected: () => {
            throw new cjs.ToolError("city not found");
          },
        },
      },
      { input, output, protocol: "executa" },
    );
    const lines: string[] = [];
    output
      .setEncoding("utf8")
      .on("data", (chunk: string) => lines.push(...chunk.split("\n").filter(Boolean)));
    for (const [id, tool] of [
      [1, "declined"],
      [2, "expected"],
    ] as const) {
      input.write(
        `${JSON.stringify({ jsonrpc: "2.0", id, method: "invoke", params: { tool, arguments: {} } })}\n`,
      );
    }
    await expect.poll(() => lines.length).toBeGreaterThanOrEqual(2);
    const answers = lines.map((line) => JSON.parse(line));
    expect(answers.find((a) => a.id === 1).error.code).toBe(-32009);
    expect(answers.find((a) => a.id === 2).result).toMatchObject({ success: false, error: "city not found" });
    await server.stop("requested");
  });
});
