// A round-robin reverse proxy for the load run, as HAProxy or nginx would be in front of
// the replicas: each request to the next live replica, bodies and event streams passed
// through as they come. A replica whose connection fails leaves the rotation; one that
// refused it never got the request, which goes to the next replica; one checked on /readyz
// comes back. A request whose replica dies before answering gets 502, marked so the load
// can count it as lost with its replica.
import { Agent, createServer, request } from "node:http";
import { UPSTREAM_LOST_HEADER } from "./drive.mjs";

/** Starts the proxy on a free loopback port in front of `replicas` (`{ name, url }`). */
export async function startProxy(replicas) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  const targets = replicas.map((replica) => ({
    ...replica,
    origin: new URL(replica.url).origin,
    live: true,
  }));
  let next = 0;
  const pick = (tried) => {
    for (let i = 0; i < targets.length; i += 1) {
      const target = targets[(next + i) % targets.length];
      if (target.live && !tried.has(target)) {
        next = (next + i + 1) % targets.length;
        return target;
      }
    }
    return undefined;
  };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => forward(req, res, Buffer.concat(chunks), new Set()));
  });
  const forward = (req, res, body, tried) => {
    const target = pick(tried);
    if (!target) {
      res.writeHead(503, { "content-type": "application/json" }).end('{"error":"no live replica"}');
      return;
    }
    tried.add(target);
    const upstream = request(
      new URL(req.url, target.origin),
      { method: req.method, headers: { ...req.headers, host: new URL(target.origin).host }, agent },
      (answer) => {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
        answer.once("error", () => res.destroy());
      },
    );
    upstream.once("error", (error) => {
      // A replica whose connection failed leaves the rotation at once (HAProxy's `fall 1`),
      // so that only the requests it held when it failed are lost with it.
      target.live = false;
      if (error.code === "ECONNREFUSED") return forward(req, res, body, tried);
      if (res.headersSent) return res.destroy();
      res.writeHead(502, { "content-type": "application/json", [UPSTREAM_LOST_HEADER]: target.name }).end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32000, message: `replica ${target.name}: ${error.code}` },
        }),
      );
    });
    upstream.end(body);
  };
  // Replicas out of rotation are checked on /readyz once a second.
  const check = setInterval(() => {
    for (const target of targets.filter((t) => !t.live)) {
      fetch(new URL("/readyz", target.origin)).then(
        (answer) => {
          target.live = answer.ok;
        },
        () => {},
      );
    }
  }, 1_000);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    stop: () =>
      new Promise((resolve) => {
        clearInterval(check);
        agent.destroy();
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
