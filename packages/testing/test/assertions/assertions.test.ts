import { AssertionError } from "node:assert";
import { InvalidParamsError, JsonRpcErrorCode, RpcError } from "@executa/core";
import { describe, expect, it } from "vitest";
import { expectInvalidParams, expectRpcError, expectSuccess, expectToolError } from "../../src/index.js";

describe("expectSuccess", () => {
  it("returns the data of a success, typed", async () => {
    const data: { n: number } = expectSuccess({ success: true, data: { n: 1 } });
    expect(data).toEqual({ n: 1 });
    expect(await expectSuccess(Promise.resolve({ success: true, data: "x" }))).toBe("x");
  });

  it("fails on success: false, naming the tool's error", () => {
    expect(() => expectSuccess({ success: false, error: "boom" })).toThrow(AssertionError);
    expect(() => expectSuccess({ success: false, error: "boom" })).toThrow(
      /success: false with error "boom"/,
    );
  });

  it("fails on something that is not an InvokeResult", () => {
    expect(() => expectSuccess({ ok: true } as never)).toThrow(/expected an InvokeResult/);
  });

  it("fails on a rejected request, naming its code", async () => {
    await expect(expectSuccess(Promise.reject(new RpcError(-32601, "Unknown tool: x")))).rejects.toThrow(
      /request failed with -32601: Unknown tool: x/,
    );
  });
});

describe("expectToolError", () => {
  it("returns the message of a matching tool error", () => {
    expect(expectToolError({ success: false, error: "city not found: X" }, /not found/)).toBe(
      "city not found: X",
    );
    expect(expectToolError({ success: false, error: "city not found: X" }, "city")).toBe("city not found: X");
    expect(expectToolError({ success: false, error: "anything" })).toBe("anything");
  });

  it("fails on a success or a message that does not match", () => {
    expect(() => expectToolError({ success: true, data: 1 })).toThrow(/but the invoke succeeded/);
    expect(() => expectToolError({ success: false, error: "other" }, /not found/)).toThrow(
      /to match \/not found\/, got "other"/,
    );
  });
});

describe("expectRpcError", () => {
  it("resolves with the RpcError of the expected code", async () => {
    const error = await expectRpcError(
      Promise.reject(new RpcError(-32601, "Unknown tool: x", { tool: "x" })),
      -32601,
    );
    expect(error.data).toEqual({ tool: "x" });
    await expectRpcError(Promise.reject(new RpcError(-32601, "Unknown tool: x")), -32601, /Unknown tool/);
  });

  it("fails on another code, another message, a plain error or a resolved request", async () => {
    await expect(expectRpcError(Promise.reject(new RpcError(-32603, "internal")), -32601)).rejects.toThrow(
      /expected JSON-RPC error -32601, got -32603: internal/,
    );
    await expect(expectRpcError(Promise.reject(new RpcError(-32601, "a")), -32601, "b")).rejects.toThrow(
      /to match b/,
    );
    await expect(expectRpcError(Promise.reject(new Error("plain")), -32601)).rejects.toThrow(
      /got a Error: plain/,
    );
    await expect(expectRpcError(Promise.resolve({ success: false, error: "e" }), -32601)).rejects.toThrow(
      /but the request resolved with \{"success":false,"error":"e"\}/,
    );
  });
});

describe("expectInvalidParams", () => {
  const invalid = () =>
    Promise.reject(
      new InvalidParamsError("bad", [
        { path: "city", message: "required" },
        { path: "days", message: "max 7" },
      ]),
    );

  it("resolves with the issues when every path is named", async () => {
    const issues = await expectInvalidParams(invalid(), ["city", "days"]);
    expect(issues).toHaveLength(2);
  });

  it("fails when a path is missing or the code differs", async () => {
    await expect(expectInvalidParams(invalid(), ["zip"])).rejects.toThrow(/issues for "zip"/);
    await expect(
      expectInvalidParams(Promise.reject(new RpcError(JsonRpcErrorCode.INTERNAL_ERROR, "x"))),
    ).rejects.toThrow(/-32602/);
  });
});
