import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { HostError } from "../../errors/host-error.js";
import type { UrlSigner } from "./url-signer.js";

/** Serves one signed request for the object `id` of a route. */
export type RouteHandler = (id: string, request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** The handlers of one route, by HTTP method. */
export interface Route {
  GET?: RouteHandler;
  PUT?: RouteHandler;
}

/**
 * The HTTP server behind presigned URLs, listening on 127.0.0.1 only (on a free port,
 * from the first URL made). Every request must carry a valid, unexpired signature for
 * its method and path (`?exp=…&sig=…`), else it is answered 403; handlers only see
 * signed requests.
 */
export class LoopbackServer {
  private readonly routes = new Map<string, Route>();
  private server: Server | undefined;
  private listening: Promise<string> | undefined;

  constructor(
    private readonly signer: UrlSigner,
    private readonly host = "127.0.0.1",
  ) {}

  /** Registers the handlers of `/<name>/<id>` URLs. */
  route(name: string, route: Route): void {
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new HostError("INVALID_OPTION", `bad route name: ${name}`);
    this.routes.set(name, route);
  }

  /** A presigned URL for `method` on `/<route>/<id>`, valid until `expiresAt` (epoch ms). */
  async presign(method: "GET" | "PUT", route: string, id: string, expiresAt: number): Promise<string> {
    const base = await this.start();
    const resource = `/${route}/${encodeURIComponent(id)}`;
    const sig = this.signer.sign(method, resource, expiresAt);
    return `${base}${resource}?exp=${expiresAt}&sig=${sig}`;
  }

  /** Starts listening (once) and resolves with the base URL, e.g. `http://127.0.0.1:5123`. */
  start(): Promise<string> {
    this.listening ??= new Promise((resolve, reject) => {
      const server = createServer((request, response) => void this.serve(request, response));
      this.server = server;
      server.once("error", reject);
      server.listen(0, this.host, () => {
        const { port } = server.address() as AddressInfo;
        resolve(`http://${this.host}:${port}`);
      });
    });
    return this.listening;
  }

  /** Stops listening and closes open connections. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const url = new URL(request.url ?? "/", "http://localhost");
      const match = /^\/([a-z][a-z0-9-]*)\/([^/]+)$/.exec(url.pathname);
      const route = match ? this.routes.get(match[1]!) : undefined;
      const method = request.method === "HEAD" ? "GET" : request.method;
      const handler = route && (method === "GET" || method === "PUT") ? route[method] : undefined;
      if (!match || !handler) {
        request.resume();
        return finish(response, 404, "not found");
      }
      const check = this.signer.verify(
        method!,
        url.pathname,
        url.searchParams.get("exp"),
        url.searchParams.get("sig"),
      );
      if (check !== "ok") {
        request.resume();
        return finish(response, 403, check === "expired" ? "URL expired" : "bad signature");
      }
      await handler(decodeURIComponent(match[2]!), request, response);
    } catch (error) {
      if (!response.headersSent) finish(response, 500, (error as Error).message);
      else response.destroy();
    }
  }
}

/** Ends a response with a short text body. */
export function finish(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "content-type": "text/plain; charset=utf-8", connection: "close" });
  response.end(`${message}\n`);
}
