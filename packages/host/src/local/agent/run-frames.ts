import { NO_TOOLS_AVAILABLE as NO_TOOLS_CODE } from "@executa/core";

/** One frame of a buffered `agent/session.run` answer; `event` names its kind. */
export type AgentRunFrame = { event: string } & Record<string, unknown>;

/** The reference host's warning for a session that can call no tool at all. */
export const NO_TOOLS_AVAILABLE = {
  code: NO_TOOLS_CODE,
  message:
    "This agent session resolved ZERO executable tools: it cannot read/write local files. Any side effects " +
    "claimed in the model output will NOT have happened. Grant tools to this app (inherit_host_tools / " +
    "allowed_tools) or use llm.complete for text-only generation.",
} as const;

/** What the `run_meta` frame says about the session's tool surface. */
export interface RunMeta {
  runId: string;
  sessionUuid: string;
  submode: string | null;
  grantedTools: readonly string[];
  inheritHostTools: boolean;
}

/** The `run_meta` frame that opens every run, with its warnings. */
export function runMetaFrame(meta: RunMeta): AgentRunFrame {
  const noTools = meta.grantedTools.length === 0 && !meta.inheritHostTools;
  return {
    event: "run_meta",
    run_id: meta.runId,
    app_session_uuid: meta.sessionUuid,
    submode: meta.submode,
    inherit_host_tools: meta.inheritHostTools,
    granted_tools: [...meta.grantedTools],
    warnings: noTools ? [{ ...NO_TOOLS_AVAILABLE }] : [],
  };
}

/** The reply as `token` frames, one per word with its trailing space. */
export function tokenFrames(text: string): AgentRunFrame[] {
  return (text.match(/\s*\S+\s*/g) ?? []).map((piece) => ({ event: "token", text: piece }));
}
