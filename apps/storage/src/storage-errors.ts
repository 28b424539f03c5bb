import { JsonRpcErrorCode, StorageError, ToolError } from "@executa/core";

/**
 * Runs one tool's storage work and turns a failed reverse call into a `ToolError`
 * (`{ success: false, error }`) that says what went wrong in words the user can act on,
 * with the host's code in `data.code`. Other errors pass through unchanged (an aborted
 * invoke still answers as a timeout).
 */
export async function withStorage<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw explainStorageFailure(what, error);
  }
}

/** The `ToolError` for a `StorageError`; any other value is returned as it is. */
export function explainStorageFailure(what: string, error: unknown): unknown {
  if (!(error instanceof StorageError)) return error;
  const fail = (reason: string) => new ToolError(`${what}: ${reason}`, { code: error.code });
  // Served over MCP, the refusal itself names the MCP-side cause and its fix.
  if (error.isNotNegotiated() && (error.data as { protocol?: unknown } | undefined)?.protocol === "mcp") {
    return fail(error.message);
  }
  if (error.isNotNegotiated()) {
    return fail(
      "this host offers no storage to plugins: it did not negotiate Executa protocol 2.0, which host storage needs",
    );
  }
  if (error.isNotGranted()) return fail(`the host did not grant storage access (${error.message})`);
  if (error.code === JsonRpcErrorCode.METHOD_NOT_FOUND) {
    return fail(`this host does not implement storage (${error.message})`);
  }
  if (error.isPreconditionFailed()) {
    return fail(`other writers kept changing the notebook at the same time; try again (${error.message})`);
  }
  if (error.isTimeout()) return fail(`the host's storage did not answer in time (${error.message})`);
  if (error.isQuotaExceeded()) return fail(`the storage quota is used up (${error.message})`);
  if (error.isRateLimited())
    return fail(`the host is rate-limiting storage calls; try again later (${error.message})`);
  if (error.isValueTooLarge()) return fail(`too large for the host's storage (${error.message})`);
  if (error.isInvalidPath()) return fail(`the host rejected the path (${error.message})`);
  return fail(`storage error ${error.code}: ${error.message}`);
}
