/** The MCP revisions this server speaks, newest first. */
export const MCP_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** One MCP revision this server speaks. */
export type McpProtocolVersion = (typeof MCP_PROTOCOL_VERSIONS)[number];

/** The newest revision; answered when the client asks for one this server does not speak. */
export const LATEST_MCP_PROTOCOL_VERSION: McpProtocolVersion = MCP_PROTOCOL_VERSIONS[0];

/** The revision the client asked for when this server speaks it, else the newest. */
export function negotiateMcpVersion(requested: unknown): McpProtocolVersion {
  return (MCP_PROTOCOL_VERSIONS as readonly unknown[]).includes(requested)
    ? (requested as McpProtocolVersion)
    : LATEST_MCP_PROTOCOL_VERSION;
}

/** Whether `version` is `since` or newer (revisions are ISO dates, so they sort as text). */
function atLeast(version: McpProtocolVersion, since: McpProtocolVersion): boolean {
  return version >= since;
}

/** What a negotiated revision allows, as the rest of the MCP side asks it. */
export interface McpFeatures {
  /** `structuredContent` in tool results and `title` on tools and server info (2025-06-18). */
  readonly structuredContent: boolean;
  /** Invalid tool arguments answer a tool result with `isError` instead of -32602 (2025-11-25). */
  readonly argumentErrorsAsToolErrors: boolean;
}

/** The features of one revision. */
export function featuresOf(version: McpProtocolVersion): McpFeatures {
  return {
    structuredContent: atLeast(version, "2025-06-18"),
    argumentErrorsAsToolErrors: atLeast(version, "2025-11-25"),
  };
}
