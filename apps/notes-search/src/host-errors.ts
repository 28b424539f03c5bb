import {
  CapabilityError,
  type CapabilityFamilyName,
  EmbeddingsError,
  JsonRpcErrorCode,
  SamplingError,
  StorageError,
  StructuredOutputError,
  ToolError,
} from "@executa/core";

/** What each family of host calls is, in the user's words, and the capability that grants it. */
const SERVICES: Partial<Record<CapabilityFamilyName, { what: string; capability: string }>> = {
  sampling: { what: "sampling", capability: "llm.sample" },
  embeddings: { what: "embeddings", capability: "llm.embed" },
  storage: { what: "storage", capability: "aps.kv" },
};

/** One way a host call fails, and how to say it. */
interface Explanation {
  applies(error: CapabilityError): boolean;
  reason(error: CapabilityError, what: string, capability: string): string;
}

const EXPLANATIONS: readonly Explanation[] = [
  {
    // Served over MCP, the refusal itself names the MCP-side cause and its fix.
    applies: (error) => error.isNotNegotiated() && refusedByMcp(error),
    reason: (error) => error.message,
  },
  {
    applies: (error) => error.isNotNegotiated(),
    reason: (_, what) =>
      `this host offers no ${what} to plugins: it did not negotiate Executa protocol 2.0, which host calls need`,
  },
  {
    applies: (error) => error.isNotGranted(),
    reason: (error, what, capability) => `the host did not grant ${what} (${capability}): ${error.message}`,
  },
  {
    applies: (error) => error.code === JsonRpcErrorCode.METHOD_NOT_FOUND,
    reason: (error, what) => `this host does not implement ${what} (${error.message})`,
  },
  {
    applies: (error) =>
      (error instanceof SamplingError || error instanceof EmbeddingsError) && error.isUserDenied(),
    reason: (_, what) => `the user declined the ${what} request`,
  },
  {
    applies: (error) => error instanceof SamplingError && error.isUnsupportedResponseFormat(),
    reason: (error) => `the host's model cannot answer in a JSON schema (${error.message})`,
  },
  {
    applies: (error) => error instanceof SamplingError && error.isLimitExceeded(),
    reason: (error) => `this call used up the model calls or tokens the host allows (${error.message})`,
  },
  {
    applies: (error) => error instanceof EmbeddingsError && error.isMaxTokensExceeded(),
    reason: (error) => `the text is too long for the host's embedding model (${error.message})`,
  },
  {
    applies: (error) => error instanceof StorageError && error.isValueTooLarge(),
    reason: (error) => `the note is too large for the host's storage (${error.message})`,
  },
  {
    applies: (error) => error instanceof StorageError && error.isRateLimited(),
    reason: (error) => `the host is rate-limiting storage calls; try again later (${error.message})`,
  },
  {
    applies: (error) => error.isTimeout(),
    reason: (error, what) => `the host's ${what} did not answer in time (${error.message})`,
  },
  {
    applies: (error) => error.isQuotaExceeded(),
    reason: (error, what) => `the ${what} quota is used up (${error.message})`,
  },
];

/** A host call refused because the plugin is served over MCP, which lacks it. */
function refusedByMcp(error: CapabilityError): boolean {
  return (error.data as { protocol?: unknown } | undefined)?.protocol === "mcp";
}

/**
 * Runs one tool's host work and turns a failed host call into a `ToolError`
 * (`{ success: false, error }`) that says what went wrong in words the user can act on,
 * with the host's code in `data.code`. Other errors pass through unchanged.
 */
export async function withHost<T>(tool: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw explainHostFailure(tool, error);
  }
}

/** The `ToolError` for a failed host call; any other value is returned as it is. */
export function explainHostFailure(tool: string, error: unknown): unknown {
  if (error instanceof StructuredOutputError) return offSchemaAnswer(tool, error);
  if (!(error instanceof CapabilityError)) return error;
  const service = SERVICES[error.family] ?? { what: error.family, capability: error.family };
  const explanation = EXPLANATIONS.find((candidate) => candidate.applies(error));
  const reason = explanation
    ? explanation.reason(error, service.what, service.capability)
    : `${service.what} error ${error.code}: ${error.message}`;
  return new ToolError(`${tool}: ${reason}`, { code: error.code });
}

/** The model answered outside the summary schema, also after being told what was wrong. */
function offSchemaAnswer(tool: string, error: StructuredOutputError): ToolError {
  const { failure, issues, attempts, downgraded } = error.data;
  const what = failure === "not_json" ? "is not JSON" : "does not fit the summary schema";
  const problems = issues
    .slice(0, 5)
    .map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))
    .join("; ");
  const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
  const why = downgraded ? " (the host could not bind its model to the schema)" : "";
  return new ToolError(`${tool}: the model's answer ${what} after ${tries}${why}: ${problems}`, {
    code: error.code,
    failure,
    issues,
    attempts,
  });
}
