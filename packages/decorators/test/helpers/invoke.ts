import { createLogger, type InvokeContext, type PluginDefinition } from "@executa/core";
import { createInvokeContext } from "@executa/core/internal";

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
