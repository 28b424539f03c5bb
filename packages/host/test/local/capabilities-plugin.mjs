// A v2 plugin declaring the image, embeddings and agent capabilities: its `calls` tool makes
// the reverse calls it is told, one after another, and returns every answer (result or error).
import { serve } from "../fixtures/lib/plugin-kit.mjs";

const plugin = serve({
  initialize: (params) => ({
    protocolVersion: params.protocolVersion === "2.0" ? "2.0" : "1.1",
    serverInfo: { name: "capabilities", version: "1.0.0" },
    client_capabilities: { image: {}, embeddings: {}, agent: { submodes: ["auto"] } },
    capabilities: {},
    offered: params.capabilities,
  }),
  describe: () => ({
    name: "capabilities",
    version: "1.0.0",
    description: "Fixture: image, embeddings and agent reverse calls.",
    host_capabilities: ["llm.image", "llm.image.edit", "llm.embed", "llm.agent.auto"],
    tools: [
      { name: "calls", description: "makes the reverse calls in args.calls", timeout: 20, parameters: [] },
    ],
  }),
  health: () => ({ status: "ready", message: "", details: {} }),
  invoke: async ({ arguments: args = {}, context = {} }) => {
    const answers = [];
    let last;
    for (const { method, params = {} } of args.calls ?? []) {
      // "$uuid" stands for the app_session_uuid of the latest answer that had one.
      const filled = JSON.parse(JSON.stringify(params).replaceAll('"$uuid"', JSON.stringify(last ?? null)));
      const answer = await plugin.call(method, { ...filled, context: { invoke_id: context.invoke_id } });
      last = answer.result?.app_session_uuid ?? last;
      answers.push(answer.error ? { error: answer.error } : { result: answer.result });
    }
    return { success: true, data: { answers } };
  },
});
