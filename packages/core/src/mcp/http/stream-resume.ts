import type { IncomingMessage, ServerResponse } from "node:http";
import { acceptedAnswers } from "./http-checks.js";
import type { LegacySessions } from "./legacy-sessions.js";
import { INVALID, Refusal, TRANSPORT_ERROR } from "./refusal.js";
import type { StreamSink } from "./shared/session-store.js";

/**
 * `GET` with `Last-Event-ID` and `Mcp-Session-Id`: the rest of a response stream the
 * client lost, from whichever replica wrote it (its events come from the shared store).
 * Without a shared store, or without those headers, GET is not served (405), as before.
 */
export async function resumeStream(
  req: IncomingMessage,
  res: ServerResponse,
  sessions: LegacySessions,
  sessionHeader: string,
): Promise<void> {
  const lastEventId = req.headers["last-event-id"];
  const sessionId = req.headers[sessionHeader];
  if (!sessions.shared || typeof lastEventId !== "string" || typeof sessionId !== "string") {
    throw new Refusal(
      405,
      TRANSPORT_ERROR,
      `Method GET not allowed: POST requests, DELETE ends a session${sessions.shared ? ", GET with Last-Event-ID and Mcp-Session-Id resumes a stream" : ""}`,
      { allow: sessions.shared ? "GET, POST, DELETE" : "POST, DELETE" },
    );
  }
  if (!acceptedAnswers(req.headers.accept).eventStream) {
    throw new Refusal(406, INVALID, "Not Acceptable: a resumed stream is text/event-stream; Accept it");
  }
  if (!(await sessions.resume(sessionId, lastEventId, eventSink(res, { [sessionHeader]: sessionId })))) {
    throw new Refusal(
      404,
      TRANSPORT_ERROR,
      "No stream to resume: Last-Event-ID names no stream of this session, or its events expired",
    );
  }
}

/** Writes events to `res` as an event stream, its headers sent with the first. */
function eventSink(res: ServerResponse, headers: Record<string, string>): StreamSink {
  const start = () => {
    if (res.headersSent) return;
    res.writeHead(200, { ...headers, "content-type": "text/event-stream", "cache-control": "no-cache" });
  };
  return {
    write(eventId, frame) {
      if (res.destroyed) return;
      start();
      res.write(`${eventId === undefined ? "" : `id: ${eventId}\n`}event: message\ndata: ${frame}\n\n`);
    },
    end() {
      if (res.destroyed) return;
      start();
      res.end();
    },
    get closed() {
      return res.destroyed;
    },
  };
}
