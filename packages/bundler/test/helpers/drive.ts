import { type ArtifactCommand, startArtifact, stderrOf } from "../../src/verify/artifact-process.js";

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
  const { plugin, strayLines } = await startArtifact(command);
  try {
    const outcomes: Outcome[] = [];
    for (const { method, params } of requests) {
      try {
        outcomes.push({ result: await plugin.request(method, params, 10_000) });
      } catch (error) {
        const { code, message } = error as { code: number; message: string };
        outcomes.push({ error: { code, message } });
      }
    }
    const exit = await plugin.stop({ via: "eof", graceMs: 5_000 });
    await plugin.closed;
    return { outcomes, exitCode: exit.code, stray: strayLines, stderr: stderrOf(plugin) };
  } finally {
    plugin.kill();
  }
}

/** `invoke` params for a tool. */
export const invoke = (tool: string, args: Record<string, unknown> = {}) => ({
  method: "invoke",
  params: { tool, arguments: args, context: { invoke_id: `test-${tool}` } },
});
