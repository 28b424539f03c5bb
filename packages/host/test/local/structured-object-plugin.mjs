// A plugin on @executa/core's built output whose `judge` tool asks the host's model for a
// Verdict with sampling.createObject, served over Executa or, with --mcp, over MCP. A
// hand-written schema provider stands in for @executa/decorators' (host does not depend on it).
import { StructuredOutputError, servePlugin } from "@executa/core";
import { registerObjectSchemaProvider } from "@executa/core/internal";

class Verdict {}

const SCHEMA = {
  type: "object",
  properties: {
    verdict: { type: "string", enum: ["yes", "no"] },
    score: { type: "integer", minimum: 1 },
  },
  required: ["verdict", "score"],
  additionalProperties: false,
};

function issuesOf(value) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [{ path: "", message: "must be an object" }];
  }
  const issues = [];
  if (!["yes", "no"].includes(value.verdict)) issues.push({ path: "verdict", message: "must be yes or no" });
  if (!Number.isInteger(value.score) || value.score < 1) {
    issues.push({ path: "score", message: "must be an integer of at least 1" });
  }
  for (const key of Object.keys(value)) {
    if (!(key in SCHEMA.properties)) issues.push({ path: key, message: "is not allowed" });
  }
  return issues;
}

registerObjectSchemaProvider({
  supports: (target) => target === Verdict,
  schemaOf: () => ({ schema: SCHEMA, name: "verdict" }),
  validate: async (_target, value) => {
    const issues = issuesOf(value);
    return issues.length > 0
      ? { ok: false, issues }
      : { ok: true, value: Object.assign(new Verdict(), value) };
  },
});

servePlugin({
  manifest: {
    name: "structured-object",
    version: "1.0.0",
    description: "Fixture: sampling.createObject against the host's model.",
    host_capabilities: ["llm.sample"],
    tools: [
      {
        name: "judge",
        description: "Asks the model for a verdict on a claim.",
        parameters: [
          { name: "claim", type: "string", description: "The claim." },
          { name: "retries", type: "integer", required: false, default: 0 },
          { name: "onUnsupported", type: "string", required: false, enum: ["error", "json_object", "text"] },
        ],
      },
    ],
  },
  handlers: {
    judge: async ({ claim, retries, onUnsupported }, ctx) => {
      try {
        const created = await ctx.host.sampling.createObject(Verdict, {
          systemPrompt: "You judge claims.",
          messages: [{ role: "user", content: `Is this true? ${claim}` }],
          retries,
          ...(onUnsupported ? { onUnsupported } : {}),
        });
        const { object, downgraded, attempts, structuredValid } = created;
        return {
          object: { ...object },
          isInstance: object instanceof Verdict,
          downgraded,
          attempts,
          structuredValid,
        };
      } catch (error) {
        if (!(error instanceof StructuredOutputError) && error?.code !== -32010) throw error;
        return { failed: { name: error.name, code: error.code, message: error.message, data: error.data } };
      }
    },
  },
});
