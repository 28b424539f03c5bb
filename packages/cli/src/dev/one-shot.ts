import type { CliIO } from "../cli-io.js";
import { formatCredentials } from "./credentials.js";
import type { DevSession } from "./dev-session.js";
import { formatInvokeError, formatInvokeResult, type Paint } from "./format.js";
import { parseInvokeArgs } from "./invoke-args.js";

/**
 * `executa dev --describe`: the manifest as JSON on stdout, and on stderr the declared
 * credentials with whether each is set. Exit code 0.
 */
export function printManifest(session: DevSession, io: CliIO): number {
  io.stderr.write(formatCredentials(session.manifest, session.credentials));
  io.stdout.write(`${JSON.stringify(session.manifest, null, 2)}\n`);
  return 0;
}

/**
 * `executa dev --invoke TOOL --args …`: the InvokeResult as JSON on stdout; on stderr the
 * declared credentials with whether each is set, then the verdict and timing. Exit code 0 for success, 1 for `success: false` or an error.
 *
 * @throws InvokeArgsError for malformed arguments (before anything is sent).
 */
export async function invokeOnce(
  session: DevSession,
  tool: string,
  rawArgs: readonly string[],
  io: CliIO,
  p: Paint,
  timeoutMs?: number,
): Promise<number> {
  const spec = session.manifest.tools.find((t) => t.name === tool);
  const args = parseInvokeArgs(rawArgs, spec);
  io.stderr.write(formatCredentials(session.manifest, session.credentials, process.env, p));
  const outcome = await session.invoke(tool, args, timeoutMs);
  if (!outcome.ok) {
    io.stderr.write(`${formatInvokeError(outcome.error, outcome.elapsedMs, p)}\n`);
    return 1;
  }
  io.stdout.write(`${JSON.stringify(outcome.result, null, 2)}\n`);
  io.stderr.write(`${tool}: ${formatInvokeResult(outcome.result, outcome.elapsedMs, p).split("\n")[0]}\n`);
  return outcome.result.success ? 0 : 1;
}
