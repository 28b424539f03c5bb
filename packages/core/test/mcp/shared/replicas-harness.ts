import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";

// A round-robin HTTP proxy in front of replicas (each request to the next one alive, as a
// load balancer without affinity does) and a reader of event streams, for the tests of
// sessions shared between replicas.

/** A proxy listening on 127.0.0.1: `url` is its `/mcp`. */
export interface RoundRobinProxy {
  readonly url: string;
  /** Which upstream (index) answered each request so far, in order. */
  readonly served: number[];
  close(): Promise<void>;
}

/**
 * Forwards each request to the next upstream in turn, on a connection of its own (no kept-alive
 * connection to a replica since killed); one refusing connections (a dead replica) is
 * skipped, as a load balancer's health check would. A response cut off by
 * its upstream is cut off for the client too. Answers say who served them in `x-upstream`.
 */
export async function startRoundRobinProxy(upstreams: readonly string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const served: number[] = [];
  const forward = (
    req: IncomingMessage,
    body: Buffer,
    res: import("node:http").ServerResponse,
    tries: number,
  ) => {
    const index = next++ % upstreams.length;
    const target = new URL(req.url ?? "/", upstreams[index]);
    const upstream = httpRequest(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host }, agent: false },
      (answer) => {
        served.push(index);
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, "x-upstream": String(index) });
        answer.pipe(res);
        answer.once("error", () => res.destroy());
        answer.once("aborted", () => res.destroy());
      },
    );
    upstream.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED" && tries < upstreams.length) forward(req, body, res, tries + 1);
      else res.destroy();
    });
    res.once("close", () => upstream.destroy());
    upstream.end(body);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => forward(req, Buffer.concat(chunks), res, 1));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One server-sent event. */
export interface StreamEvent {
  readonly id: string | undefined;
  readonly data: Record<string, unknown>;
}

/** An HTTP answer read as it arrives. */
export interface OpenAnswer {
  readonly status: number;
  readonly headers: IncomingMessage["headers"];
  /** The next event, or undefined once the stream ended or broke. */
  next(): Promise<StreamEvent | undefined>;
  /** Every remaining event, and how the stream ended: `end` in order, `broken` when cut off. */
  rest(): Promise<{ events: StreamEvent[]; ending: "end" | "broken" }>;
  /** The client goes away. */
  destroy(): void;
}

/** Sends a request (a JSON-RPC message POSTed, or a GET) and reads its answer's events as they come. */
export function openAnswer(
  url: string,
  method: "GET" | "POST",
  headers: Record<string, string>,
  message?: object,
): Promise<OpenAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        headers: {
          accept: "application/json, text/event-stream",
          ...(message && { "content-type": "application/json" }),
          ...headers,
        },
      },
      (res) => {
        const events: StreamEvent[] = [];
        const waiting: (() => void)[] = [];
        let buffer = "";
        let ending: "end" | "broken" | undefined;
        const wake = () => {
          for (const waiter of waiting.splice(0)) waiter();
        };
        res.on("data", (chunk: Buffer) => {
          buffer += chunk.toString();
          for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const field = (name: string) =>
              block
                .split("\n")
                .find((line) => line.startsWith(`${name}: `))
                ?.slice(name.length + 2);
            const data = field("data");
            if (data !== undefined) events.push({ id: field("id"), data: JSON.parse(data) });
          }
          wake();
        });
        res.once("end", () => {
          ending ??= "end";
          if (buffer.trim() !== "" && !res.headers["content-type"]?.includes("event-stream")) {
            events.push({ id: undefined, data: JSON.parse(buffer) });
          }
          wake();
        });
        const broke = () => {
          ending ??= "broken";
          wake();
        };
        res.once("aborted", broke);
        res.once("error", broke);
        res.once("close", () => {
          if (!res.complete) broke();
        });
        const settled = () => ending !== undefined;
        const next = async (): Promise<StreamEvent | undefined> => {
          while (events.length === 0 && !settled()) await new Promise<void>((wakeUp) => waiting.push(wakeUp));
          return events.shift();
        };
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          next,
          rest: async () => {
            const rest: StreamEvent[] = [];
            for (let event = await next(); event; event = await next()) rest.push(event);
            return { events: rest, ending: ending ?? "end" };
          },
          destroy: () => req.destroy(),
        });
      },
    );
    req.on("error", reject);
    req.end(message && JSON.stringify(message));
  });
}
