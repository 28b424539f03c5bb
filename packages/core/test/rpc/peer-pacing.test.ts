import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log/logger.js";
import { JsonRpcPeer, type RequestHandler, type RequestPacing } from "../../src/rpc/peer.js";
import { streamTransport } from "../../src/transport/stream-transport.js";
import { memoryPipe } from "../helpers/memory-pipe.js";
import { turn } from "../helpers/turns.js";

const quiet = createLogger("test", { write: () => {}, level: "error" });

function paced(handleRequest: RequestHandler, pacing: RequestPacing) {
  const pipe = memoryPipe();
  const peer = new JsonRpcPeer({
    transport: streamTransport(pipe.input, { stream: pipe.output }),
    handleRequest,
    log: quiet,
    pacing,
  });
  return { ...pipe, peer };
}

const request = (id: number, method: string) => JSON.stringify({ jsonrpc: "2.0", id, method });

describe("JsonRpcPeer: pacing", () => {
  it("holds deferrable requests while the turn must yield, in order, and lets others pass", async () => {
    const order: string[] = [];
    let spent = false;
    const { input, reply } = paced(
      (r) => {
        order.push(`${r.method}#${String(r.id)}`);
        if (r.method === "work") spent = true; // each work item uses up its turn
        return {};
      },
      { deferrable: (method) => method === "work", mustYield: () => spent },
    );
    const reset = setInterval(() => {
      spent = false;
    }, 0);
    try {
      input.write(`${[1, 2, 3].map((id) => request(id, "work")).join("\n")}\n${request(4, "health")}\n`);
      await reply(3);
      await reply(4);
    } finally {
      clearInterval(reset);
    }
    // One work item per turn; health, read with them, is not made to wait behind them.
    expect(order).toEqual(["work#1", "health#4", "work#2", "work#3"]);
  });

  it("a request read while others of its kind wait is held behind them, even once the turn is free", async () => {
    const order: number[] = [];
    let spent = false;
    const { input, reply } = paced(
      (r) => {
        order.push(Number(r.id));
        spent = true;
        return {};
      },
      { deferrable: () => true, mustYield: () => spent },
    );
    input.write(`${request(1, "work")}\n${request(2, "work")}\n`);
    spent = false; // the turn is free again, but 2 still waits: 3 must not overtake it
    input.write(`${request(3, "work")}\n`);
    const timer = setInterval(() => {
      spent = false;
    }, 1);
    try {
      await reply(3);
    } finally {
      clearInterval(timer);
    }
    expect(order).toEqual([1, 2, 3]);
  });

  it("releaseHeld dispatches every held request at once", async () => {
    const seen: number[] = [];
    const { input, peer, reply } = paced(
      (r) => {
        seen.push(Number(r.id));
        return {};
      },
      { deferrable: () => true, mustYield: () => true },
    );
    input.write(`${[1, 2, 3].map((id) => request(id, "work")).join("\n")}\n`);
    await turn();
    expect(seen).toEqual([]);
    peer.releaseHeld();
    expect(seen).toEqual([1, 2, 3]);
    await reply(3);
  });
});

describe("JsonRpcPeer: output backlog", () => {
  it("stops dispatching requests already read while output waits, and answers each once the reader reads", async () => {
    const input = new PassThrough();
    // An output nobody reads: writes are accepted until its buffer is full, then it waits.
    const output = new PassThrough({ highWaterMark: 1024 });
    let handled = 0;
    const big = "x".repeat(64 * 1024);
    new JsonRpcPeer({
      transport: streamTransport(input, { stream: output }),
      handleRequest: () => {
        handled += 1;
        return big;
      },
      log: quiet,
    });
    const count = 1000; // ~64 MiB of answers, all in one input chunk
    input.write(`${Array.from({ length: count }, (_, i) => request(i, "describe")).join("\n")}\n`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // 16 MiB high-water mark: the rest of the chunk is held, not answered into memory.
    expect(handled).toBeGreaterThan(0);
    expect(handled).toBeLessThan(400);

    const ids = new Map<number, number>();
    let buffered = "";
    await new Promise<void>((resolve) => {
      output.on("data", (chunk: Buffer) => {
        buffered += chunk.toString("utf8");
        let lf = buffered.indexOf("\n");
        while (lf !== -1) {
          const frame = JSON.parse(buffered.slice(0, lf)) as { id: number };
          ids.set(frame.id, (ids.get(frame.id) ?? 0) + 1);
          buffered = buffered.slice(lf + 1);
          lf = buffered.indexOf("\n");
        }
        if (ids.size === count) resolve();
      });
    });
    expect(handled).toBe(count);
    expect([...ids.values()].every((n) => n === 1)).toBe(true);
  });
});
