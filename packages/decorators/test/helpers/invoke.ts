import { createLogger, InvalidParamsError, type InvokeContext, type PluginDefinition } from "@executa/core";
import { createInvokeContext } from "@executa/core/internal";
import { expect } from "vitest";

/** A real core invoke context with a host that answers nothing (for handler-level tests). */
export function testContext(
  definition: PluginDefinition,
  tool: string,
  credentials: Record<string, string> = {},
): InvokeContext {
  return createInvokeContext({
    tool,
    invokeId: "test-invoke",
    deadlineMs: Date.now() + 60_000,
    signal: new AbortController().signal,
    wire: { invoke_id: "test-invoke", credentials },
    declaredCredentials: definition.manifest.credentials ?? [],
    log: createLogger(tool, { write: () => {} }),
    channel: {
      request: async () => {
        throw new Error("no host in this test");
      },
      protocolVersion: () => "1.1",
      hostCapabilities: [],
    },
  });
}

/**
 * Calls one tool's handler the way core's server does and returns what it returned, as
 * is: a plain value, or a promise (a synchronous throw is thrown).
 */
export function handlerOutcome(
  definition: PluginDefinition,
  tool: string,
  args: unknown,
  credentials: Record<string, string> = {},
): unknown {
  const handler = definition.handlers[tool];
  if (!handler) throw new Error(`no handler ${tool}`);
  return handler(args as Record<string, unknown>, testContext(definition, tool, credentials));
}

/** Calls one tool's handler the way core's server does; every outcome as a promise. */
export async function callTool(
  definition: PluginDefinition,
  tool: string,
  args: unknown,
  credentials: Record<string, string> = {},
): Promise<unknown> {
  return handlerOutcome(definition, tool, args, credentials);
}

/** The rejection of a promise (fails the test when it resolves). */
export async function rejectionOf(
  promise: Promise<unknown>,
): Promise<Error & { code?: number; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: number; data?: unknown };
  }
  throw new Error("expected a rejection, but it resolved");
}

/** The `InvalidParamsError` (-32602) a tool call rejects with; fails the test otherwise. */
export async function invalidParams(definition: PluginDefinition, tool: string, args: unknown) {
  const error = await rejectionOf(callTool(definition, tool, args));
  expect(error).toBeInstanceOf(InvalidParamsError);
  expect(error.code).toBe(-32602);
  return error;
}
