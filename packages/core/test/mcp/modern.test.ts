import { describe, expect, it } from "vitest";
import type { McpCallToolResult } from "../../src/mcp/call-result.js";
import { fitCallResult, MCP_RESULT_BUDGET_BYTES } from "../../src/mcp/frame-cap.js";
import { modernEnvelope, modernResult } from "../../src/mcp/modern.js";
import { detectDialect } from "../../src/mcp/protocol-choice.js";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { sampling: {} },
  "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
};

describe("the 2026-07-28 first frame", () => {
  it("takes server/discover, with or without an envelope, for MCP", () => {
    expect(detectDialect({ method: "server/discover", params: { _meta: ENVELOPE } })).toBe("mcp");
    expect(detectDialect({ method: "server/discover", params: undefined })).toBe("mcp");
  });

  it("takes any frame carrying the protocolVersion envelope for MCP", () => {
    expect(detectDialect({ method: "tools/list", params: { _meta: ENVELOPE } })).toBe("mcp");
    expect(detectDialect({ method: "tools/call", params: { name: "x", _meta: ENVELOPE } })).toBe("mcp");
  });

  it("leaves Executa's first frames alone, _meta or not", () => {
    expect(detectDialect({ method: "describe", params: undefined })).toBe("executa-v1");
    expect(detectDialect({ method: "invoke", params: { tool: "x", _meta: { progressToken: 1 } } })).toBe(
      "executa-v1",
    );
    expect(detectDialect({ method: "initialize", params: { protocolVersion: "2.0", _meta: {} } })).toBe(
      "executa-v2",
    );
  });

  it("reads the envelope's version, capabilities and client", () => {
    expect(modernEnvelope({ _meta: ENVELOPE })).toEqual({
      protocolVersion: "2026-07-28",
      clientCapabilities: { sampling: {} },
      clientInfo: { name: "c", version: "1" },
    });
    expect(modernEnvelope({ _meta: { progressToken: 1 } })).toBeUndefined();
  });
});

describe("modernResult", () => {
  const server = { name: "p", version: "1.0.0" };
  it("stamps resultType, cache fields on lists and the server in _meta", () => {
    expect(modernResult("tools/list", { tools: [] }, server)).toEqual({
      resultType: "complete",
      tools: [],
      ttlMs: 0,
      cacheScope: "private",
      _meta: { "io.modelcontextprotocol/serverInfo": server },
    });
    expect(modernResult("tools/call", { content: [] }, server)).toEqual({
      resultType: "complete",
      content: [],
      _meta: { "io.modelcontextprotocol/serverInfo": server },
    });
  });
});

describe("fitCallResult", () => {
  const data = { rows: Array.from({ length: 400 }, (_, i) => ({ i, text: "x".repeat(100) })) };
  const doubled: McpCallToolResult = {
    content: [{ type: "text", text: JSON.stringify(data) }],
    structuredContent: data,
  };
  const bytes = Buffer.byteLength(JSON.stringify(doubled));

  it("keeps a result that fits", () => {
    expect(fitCallResult(doubled, bytes)).toBe(doubled);
    expect(MCP_RESULT_BUDGET_BYTES).toBe(10 * 1024 * 1024 - 128 * 1024);
  });

  it("sends the data once when twice is what makes it too big", () => {
    const fitted = fitCallResult(doubled, bytes - 1);
    expect(fitted.structuredContent).toBe(data);
    expect(fitted.content).toEqual([
      {
        type: "text",
        text: `The result (${JSON.stringify(data).length} bytes of JSON) is in structuredContent.`,
      },
    ]);
  });

  it("answers isError naming the size of the data sent once, and the limit, when once is still too big", () => {
    const note = `The result (${JSON.stringify(data).length} bytes of JSON) is in structuredContent.`;
    const once = Buffer.byteLength(
      JSON.stringify({ content: [{ type: "text", text: note }], structuredContent: data }),
    );
    expect(once).toBeLessThan(bytes / 2 + 200);
    const fitted = fitCallResult(doubled, 1000);
    expect(fitted.isError).toBe(true);
    expect(fitted.structuredContent).toBeUndefined();
    expect(fitted.content[0]?.text).toContain(`result is ${once} bytes, over the 1000-byte limit`);
  });

  it("names a result without structuredContent by its own size", () => {
    const text: McpCallToolResult = { content: [{ type: "text", text: "y".repeat(5000) }] };
    const fitted = fitCallResult(text, 1000);
    expect(fitted.content[0]?.text).toContain(
      `result is ${Buffer.byteLength(JSON.stringify(text))} bytes, over the 1000-byte limit`,
    );
  });
});
