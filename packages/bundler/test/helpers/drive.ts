import { type ArtifactCommand, ArtifactSession } from "../../src/verify/artifact-session.js";

/** One request's outcome: the result, or the JSON-RPC error. */
export type Outcome = { result: unknown } | { error: { code: number; message: string } };

/**
 * Starts an artifact and sends each request in turn over real pipes, as a host would,
 * then closes stdin and waits for the exit.
 */
export async function drive(
  command: ArtifactCommand,
  requests: readonly { method: string; params?: unknown }[],
): Promise<{ outcomes: Outcome[]; exitCode: number | null; stray: string[]; stderr: string }> {
  const session = new ArtifactSession(command);
  try {
    const outcomes: Outcome[] = [];
    for (const { method, params } of requests) {
      try {
        outcomes.push({ result: await session.request(method, params, 10_000) });
      } catch (error) {
        const { code, message } = error as { code: number; message: string };
        outcomes.push({ error: { code, message } });
      }
    }
    const exit = await session.close(5_000);
    return { outcomes, exitCode: exit.code, stray: session.strayLines, stderr: session.stderr };
  } finally {
    session.kill();
  }
}

/** `invoke` params for a tool. */
export const invoke = (tool: string, args: Record<string, unknown> = {}) => ({
  method: "invoke",
  params: { tool, arguments: args, context: { invoke_id: `test-${tool}` } },
});
