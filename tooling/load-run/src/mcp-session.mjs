// A legacy (2025-era) MCP session over Streamable HTTP, as a client keeps one: initialize,
// the initialized notification, then tools/call with the session's id. For the probes and
// the read-back; the load itself is driven by autocannon (./drive.mjs).

export const PROTOCOL_VERSION = "2025-06-18";

/** The headers of a POST to /mcp, with the session's id once it has one. */
export function mcpHeaders(sessionId) {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL_VERSION,
    ...(sessionId && { "mcp-session-id": sessionId }),
  };
}

/** The body of an initialize request. */
export function initializeBody(id = 0) {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "load-run", version: "1" },
    },
  });
}

/** The body of a tools/call request. */
export function callBody(id, name, args) {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
}

/** The JSON-RPC message of an answer: its JSON body, or the last event of its stream. */
export function messageOf(body) {
  const events = body.split("\n").filter((line) => line.startsWith("data: "));
  return JSON.parse(events.length > 0 ? events.at(-1).slice(6) : body);
}

/** Opens a session at `url` (`http://…/mcp`); throws when the server does not give one. */
export async function openSession(url) {
  const answer = await fetch(url, { method: "POST", headers: mcpHeaders(), body: initializeBody() });
  const sessionId = answer.headers.get("mcp-session-id");
  await answer.text();
  if (!answer.ok || !sessionId) throw new Error(`initialize at ${url}: HTTP ${answer.status}, no session`);
  await post(url, sessionId, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return sessionId;
}

/**
 * Calls `name` in the session at `url`: its structured result, or an Error saying what
 * came back instead (a status, a JSON-RPC error, a tool error).
 */
export async function callTool(url, sessionId, name, args) {
  const answer = await post(url, sessionId, callBody(1, name, args));
  const text = await answer.text();
  if (!answer.ok)
    throw new Error(`tools/call ${name} at ${url}: HTTP ${answer.status} ${text.slice(0, 200)}`);
  const message = messageOf(text);
  if (message.error) throw new Error(`tools/call ${name} at ${url}: ${message.error.message}`);
  if (message.result.isError)
    throw new Error(`tools/call ${name} at ${url}: ${JSON.stringify(message.result)}`);
  return message.result.structuredContent;
}

function post(url, sessionId, body) {
  return fetch(url, { method: "POST", headers: mcpHeaders(sessionId), body });
}
