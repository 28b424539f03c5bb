import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { JsonRpcErrorCode, RpcError, ServerErrorCode } from "@executa/core";
import { describe, expect, it } from "vitest";
import { pluginExited, requestTimedOut } from "../../src/errors/call-failures.js";
import { HostError, isHostError } from "../../src/errors/host-error.js";
import { BlobDir } from "../../src/local/http/blob-dir.js";
import { LoopbackServer } from "../../src/local/http/loopback-server.js";
import { UrlSigner } from "../../src/local/http/url-signer.js";
import { InvokeRegistry } from "../../src/routing/invoke-registry.js";
import { tempDir } from "../helpers/calls.js";

describe("HostError", () => {
  it("is an RpcError whose JSON-RPC code follows the case", () => {
    const timeout = requestTimedOut("invoke", 100, "slow");
    expect(timeout).toBeInstanceOf(RpcError);
    expect(timeout).toMatchObject({ hostCode: "REQUEST_TIMEOUT", code: ServerErrorCode.TOOL_TIMEOUT });
    expect(timeout.toJSON()).toEqual({
      code: ServerErrorCode.TOOL_TIMEOUT,
      message: 'Tool "slow" timed out after 100 ms',
      data: { method: "invoke", tool: "slow", timeout_ms: 100 },
    });
    const exited = pluginExited("p", { code: 3, signal: null }, ["boom"]);
    expect(exited).toMatchObject({ hostCode: "PLUGIN_EXITED", code: JsonRpcErrorCode.INTERNAL_ERROR });
    expect(exited.details.exit).toEqual({ code: 3, signal: null });
  });

  it("is matched by code with isHostError", () => {
    const error = new HostError("SPAWN_FAILED", "cannot start");
    expect(isHostError(error)).toBe(true);
    expect(isHostError(error, "SPAWN_FAILED", "PLUGIN_EXITED")).toBe(true);
    expect(isHostError(error, "PLUGIN_EXITED")).toBe(false);
    expect(isHostError(new RpcError(-32603, "cannot start"), "SPAWN_FAILED")).toBe(false);
  });

  it("is what the invoke registry and the loopback server throw", () => {
    const registry = new InvokeRegistry();
    const invoke = registry.add("i1", "tool", Date.now() + 1000);
    expect(() => registry.add("i1", "tool", Date.now() + 1000)).toThrow(
      expect.objectContaining({ hostCode: "INVOKE_ID_IN_USE" }),
    );
    registry.remove("i1");
    expect(isHostError(invoke.controller.signal.reason, "INVOKE_ENDED")).toBe(true);
    expect(() => new LoopbackServer(new UrlSigner()).route("Bad Name", {})).toThrow(
      expect.objectContaining({ hostCode: "INVALID_OPTION" }),
    );
  });

  it("is what a blob over its limit throws (the providers answer 413 on its code)", async () => {
    const dir = tempDir();
    try {
      const body = Readable.from([Buffer.alloc(10)]) as unknown as IncomingMessage;
      await expect(new BlobDir(dir.path).receive(body, 4)).rejects.toMatchObject({
        hostCode: "BLOB_TOO_LARGE",
      });
    } finally {
      dir.remove();
    }
  });
});
