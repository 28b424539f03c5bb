import {
  JsonRpcErrorCode,
  RoutingErrorCode,
  SamplingErrorCode,
  StorageErrorCode,
  UploadErrorCode,
} from "@executa/core";
import { describe, expect, it } from "vitest";
import type { ReverseCall } from "../../src/providers/provider.js";
import { familyOf } from "../../src/routing/families.js";
import { InvokeRegistry } from "../../src/routing/invoke-registry.js";
import { ReverseRouter, type RouterState } from "../../src/routing/reverse-router.js";
import { expectRpcError } from "../helpers/calls.js";

function setup(state: Partial<RouterState> = {}) {
  const registry = new InvokeRegistry();
  const seen: ReverseCall[] = [];
  const events: unknown[] = [];
  const record = {
    handle: (call: ReverseCall) => {
      seen.push(call);
      return { ok: call.method };
    },
  };
  const router = new ReverseRouter({
    providers: { storage: record, sampling: record, upload: record },
    registry,
    state: () => ({
      protocolVersion: "2.0",
      declaredCapabilities: ["aps.kv", "llm.sample", "host.upload", "aps.files"],
      grantedCapabilities: undefined,
      pluginName: "demo",
      userId: "me",
      appId: undefined,
      ...state,
    }),
    onCall: (event) => events.push(event),
  });
  const send = (method: string, params?: unknown) => router.handle({ id: "r1", method, params });
  return { registry, router, seen, events, send };
}

describe("familyOf", () => {
  it("maps methods to families and capabilities", () => {
    expect(familyOf("storage/get")?.capability).toBe("aps.kv");
    expect(familyOf("files/list")?.capability).toBe("aps.files");
    expect(familyOf("user_files/list")?.family).toBe("files");
    expect(familyOf("host/uploadFile")?.capability).toBe("host.upload");
    expect(familyOf("image/edit")?.capability).toBe("llm.image.edit");
    expect(familyOf("image/generate")?.capability).toBe("llm.image");
    expect(familyOf("host/other")).toBeUndefined();
    expect(familyOf("__proto__/x")).toBeUndefined();
    expect(familyOf("describe")).toBeUndefined();
  });
});

describe("ReverseRouter", () => {
  it("routes by context.invoke_id and gives the provider the invoke's context", async () => {
    const { registry, send, seen, events } = setup();
    registry.add("a", "tool-a", Date.now() + 10_000);
    registry.add("b", "tool-b", Date.now() + 20_000);
    expect(await send("storage/get", { key: "k", scope: "tool", context: { invoke_id: "b" } })).toEqual({
      ok: "storage/get",
    });
    expect(seen[0]!.context).toMatchObject({
      invokeId: "b",
      tool: "tool-b",
      pluginName: "demo",
      userId: "me",
    });
    expect(seen[0]!.context.timeoutMs).toBeGreaterThan(15_000);
    expect(events).toMatchObject([{ method: "storage/get", invokeId: "b" }]);
  });

  it("uses _clientTimeoutS when the call sends one", async () => {
    const { registry, send, seen } = setup();
    registry.add("a", "t", Date.now() + 60_000);
    await send("storage/get", { _clientTimeoutS: 2 });
    expect(seen[0]!.context.timeoutMs).toBe(2000);
  });

  it("answers UNKNOWN_INVOKE_CONTEXT for an unknown or finished invoke id", async () => {
    const { registry, send } = setup();
    registry.add("a", "t", Date.now() + 1000);
    const error = await expectRpcError(
      () => send("storage/get", { context: { invoke_id: "zzz" } }),
      JsonRpcErrorCode.INVALID_PARAMS,
    );
    expect(error.data).toMatchObject({ errorCode: RoutingErrorCode.UNKNOWN_INVOKE_CONTEXT });
    registry.remove("a");
    const finished = await expectRpcError(
      () => send("storage/get", { context: { invoke_id: "a" } }),
      JsonRpcErrorCode.INVALID_PARAMS,
    );
    expect(finished.data).toMatchObject({ errorCode: RoutingErrorCode.UNKNOWN_INVOKE_CONTEXT });
  });

  it("falls back to the only active invoke, and refuses to guess among several", async () => {
    const { registry, send, seen } = setup();
    registry.add("only", "t", Date.now() + 1000);
    await send("storage/get", {});
    expect(seen[0]!.context.invokeId).toBe("only");
    registry.add("second", "t", Date.now() + 1000);
    const error = await expectRpcError(() => send("storage/get", {}), JsonRpcErrorCode.INVALID_PARAMS);
    expect(error.data).toMatchObject({ errorCode: RoutingErrorCode.MISSING_INVOKE_CONTEXT });
    registry.clear();
    const none = await expectRpcError(() => send("storage/get", {}), JsonRpcErrorCode.INVALID_PARAMS);
    expect(none.data).toMatchObject({ errorCode: RoutingErrorCode.MISSING_INVOKE_CONTEXT });
  });

  it("answers the family's NOT_GRANTED code for an undeclared or withheld capability", async () => {
    const undeclared = setup({ declaredCapabilities: ["aps.kv"] });
    undeclared.registry.add("a", "t", Date.now() + 1000);
    await expectRpcError(() => undeclared.send("sampling/createMessage", {}), SamplingErrorCode.NOT_GRANTED);
    await expectRpcError(() => undeclared.send("host/uploadFile", {}), UploadErrorCode.NOT_GRANTED);
    const withheld = setup({ grantedCapabilities: ["llm.sample"] });
    withheld.registry.add("a", "t", Date.now() + 1000);
    const error = await expectRpcError(() => withheld.send("storage/get", {}), StorageErrorCode.NOT_GRANTED);
    expect(error.data).toEqual({ capability: "aps.kv" });
    expect(withheld.seen).toHaveLength(0);
  });

  it("answers NOT_NEGOTIATED to a plugin that negotiated 1.1", async () => {
    const { registry, send } = setup({ protocolVersion: "1.1" });
    registry.add("a", "t", Date.now() + 1000);
    await expectRpcError(() => send("sampling/createMessage", {}), SamplingErrorCode.NOT_NEGOTIATED);
    await expectRpcError(() => send("host/uploadFile", {}), UploadErrorCode.NOT_NEGOTIATED);
    await expectRpcError(() => send("storage/get", {}), StorageErrorCode.NOT_GRANTED);
  });

  it("answers -32601 for unknown methods and families without a provider", async () => {
    const { registry, send, events } = setup();
    registry.add("a", "t", Date.now() + 1000);
    await expectRpcError(() => send("nothing/here", {}), JsonRpcErrorCode.METHOD_NOT_FOUND);
    await expectRpcError(() => send("files/list", {}), JsonRpcErrorCode.METHOD_NOT_FOUND);
    expect(events).toMatchObject([
      { method: "nothing/here", error: { code: -32601 } },
      { method: "files/list", error: { code: -32601 } },
    ]);
  });

  it("rejects array params", async () => {
    const { registry, send } = setup();
    registry.add("a", "t", Date.now() + 1000);
    await expectRpcError(() => send("storage/get", [1]), JsonRpcErrorCode.INVALID_PARAMS);
  });

  it("aborts the invoke's signal when the invoke ends", async () => {
    const { registry, send, seen } = setup();
    registry.add("a", "t", Date.now() + 1000);
    await send("storage/get", {});
    expect(seen[0]!.context.signal.aborted).toBe(false);
    registry.remove("a");
    expect(seen[0]!.context.signal.aborted).toBe(true);
  });
});
