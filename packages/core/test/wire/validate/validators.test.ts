import { describe, expect, it } from "vitest";
import {
  firstWireError,
  validateErrorObject,
  validateHealthResult,
  validateInitializeResult,
  validateInvokeResult,
} from "../../../src/internal.js";

const messages = (problems: { severity: string; message: string }[]) =>
  problems.map((p) => `${p.severity}: ${p.message}`);

describe("wire validators", () => {
  it("health: the three statuses pass; others are errors; message/details are warnings", () => {
    for (const status of ["ready", "error", "initializing"])
      expect(validateHealthResult({ status })).toEqual([]);
    expect(messages(validateHealthResult({ status: "healthy" }))).toEqual([
      'error: status must be one of ready, error, initializing, got "healthy"',
    ]);
    expect(messages(validateHealthResult({ status: "ready", message: 1, details: [] }))).toEqual([
      "warning: message is not a string",
      "warning: details is not an object",
    ]);
    expect(firstWireError(validateHealthResult({ status: "ready", message: 1 }))).toBeUndefined();
    expect(messages(validateHealthResult(null))).toEqual(["error: the result must be an object"]);
  });

  it("initialize: 2.0 or 1.1 (absent is 1.1), never above the offer", () => {
    expect(validateInitializeResult({ protocolVersion: "2.0" }, "2.0")).toEqual([]);
    expect(validateInitializeResult({}, "2.0")).toEqual([]);
    expect(messages(validateInitializeResult({ protocolVersion: "3" }))).toEqual([
      'error: protocolVersion must be "2.0" or "1.1", got "3"',
    ]);
    expect(messages(validateInitializeResult({ protocolVersion: "2.0" }, "1.1"))).toEqual([
      'error: the host offered "1.1" but the plugin answered "2.0"',
    ]);
  });

  it("invoke: boolean success, string error when failed, numeric duration_ms", () => {
    expect(validateInvokeResult({ success: true, data: 1, duration_ms: 3 })).toEqual([]);
    expect(validateInvokeResult({ success: false, error: "city not found" })).toEqual([]);
    expect(messages(validateInvokeResult({ success: "yes" }))).toEqual([
      "error: the result must be an object with a boolean success",
    ]);
    expect(messages(validateInvokeResult({ success: false, error: {}, duration_ms: "1" }))).toEqual([
      "error: error of a failed invoke must be a string",
      "error: duration_ms must be a number",
    ]);
  });

  it("error object: integer code, string message", () => {
    expect(validateErrorObject({ code: -32601, message: "Unknown tool: x" })).toEqual([]);
    expect(messages(validateErrorObject({ code: 1.5 }))).toEqual([
      "error: error.code must be an integer",
      "error: error.message must be a string",
    ]);
    expect(messages(validateErrorObject("boom"))).toEqual(["error: error must be an object"]);
  });
});
