import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RpcError } from "@executa/core";
import { expect } from "vitest";
import type { ReverseCall, ReverseCallContext } from "../../src/providers/provider.js";

/** A reverse call as the router would hand it to a provider. */
export function reverseCall(
  method: string,
  params: Record<string, unknown>,
  context: Partial<ReverseCallContext> = {},
): ReverseCall {
  return {
    method,
    params,
    context: {
      invokeId: "invoke-1",
      tool: "tool",
      pluginName: "plugin",
      deadlineMs: Date.now() + 60_000,
      timeoutMs: 60_000,
      userId: "tester",
      appId: undefined,
      signal: new AbortController().signal,
      ...context,
    },
  };
}

/** Asserts that `action` rejects with an RpcError of `code`, and returns it. */
export async function expectRpcError(action: () => unknown, code: number): Promise<RpcError> {
  let caught: unknown;
  try {
    await action();
  } catch (error) {
    caught = error;
  }
  expect(caught, "expected an RpcError").toBeInstanceOf(RpcError);
  expect((caught as RpcError).code, (caught as RpcError).message).toBe(code);
  return caught as RpcError;
}

/** A fresh temp directory and its remover. */
export function tempDir(prefix = "executa-host-test-"): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A clock tests move by hand. */
export function manualClock(start = Date.UTC(2026, 0, 1)): {
  now: () => number;
  advance: (ms: number) => void;
} {
  let time = start;
  return {
    now: () => time,
    advance: (ms) => {
      time += ms;
    },
  };
}
