import { reportProgress, ToolError } from "@executa/core";
import { Ctx, type InvokeContext, Plugin, Tool } from "@executa/decorators";

/** How long the progress tool waits between its reports. */
const PROGRESS_STEP_MS = 50;

/**
 * The tools the official MCP conformance suite's server scenarios call, written as any
 * plugin author writes tools: each scenario names its tool and what it must answer.
 */
@Plugin({
  name: "conformance-fixture",
  version: "1.0.0",
  description: "The tools of the MCP conformance suite's server scenarios.",
  host_capabilities: ["llm.sample"],
})
export class ConformanceFixture {
  /** Returns a fixed text (scenario tools-call-simple-text). */
  @Tool()
  testSimpleText() {
    return "This is a simple text response for testing.";
  }

  /** Fails as a tool does (scenario tools-call-error). */
  @Tool()
  testErrorHandling(): never {
    throw new ToolError("This tool intentionally returns an error for testing");
  }

  /** Reports progress three times, increasing (scenario tools-call-with-progress). */
  @Tool()
  async testToolWithProgress(@Ctx() ctx: InvokeContext) {
    for (const progress of [0, 50, 100]) {
      reportProgress(ctx, { progress, total: 100 });
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_STEP_MS));
    }
    return { done: true };
  }

  /** Asks the client's model to answer a prompt (scenario tools-call-sampling). */
  @Tool()
  async testSampling(/** The prompt to send. */ prompt: string, @Ctx() ctx: InvokeContext) {
    const reply = await ctx.host.sampling.createMessage({
      messages: [{ role: "user", content: { type: "text", text: prompt } }],
      maxTokens: 100,
    });
    return { response: reply.content.text ?? "" };
  }
}
