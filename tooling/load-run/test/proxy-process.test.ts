import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { UPSTREAM_LOST_HEADER } from "../src/drive.mjs";
import { startProxy } from "../src/proxy.mjs";

// The load run's round-robin proxy in front of two upstream servers, one of which resets
// every connection (as a replica killed with its requests in flight does).
const servers: Server[] = [];
let stopProxy: (() => Promise<void>) | undefined;

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

afterEach(async () => {
  await stopProxy?.();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe("the load run's proxy", () => {
  it("takes a replica whose connection failed out of rotation: only the request it held is lost", async () => {
    const dead = await listen((req) => req.socket.destroy());
    const live = await listen((_req, res) => res.end("ok"));
    const proxy = await startProxy([
      { name: "dead", url: dead },
      { name: "live", url: live },
    ]);
    stopProxy = proxy.stop;

    const answers: { status: number; lost: string | null }[] = [];
    for (let i = 0; i < 8; i += 1) {
      const answer = await fetch(proxy.url, { method: "POST", body: "{}" });
      await answer.text();
      answers.push({ status: answer.status, lost: answer.headers.get(UPSTREAM_LOST_HEADER) });
    }

    expect(answers[0]).toEqual({ status: 502, lost: "dead" });
    expect(answers.slice(1)).toEqual(Array.from({ length: 7 }, () => ({ status: 200, lost: null })));
  });
});
