import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log/logger.js";
import { JsonRpcPeer } from "../../src/rpc/peer.js";
import { memoryTransportPair } from "../../src/transport/memory-transport.js";
import type { TransportReceiver } from "../../src/transport/transport.js";
import { turns } from "../helpers/turns.js";

const quiet = createLogger("test", { level: "error", write: () => {} });

/** A receiver that keeps what it is told. */
function recorder() {
  const lines: string[] = [];
  const events: string[] = [];
  let ended = false;
  const receiver: TransportReceiver = {
    line: (event) => {
      if (event.kind === "line") lines.push(event.text);
      else events.push(`${event.kind} ${event.bytes}`);
    },
    frame: (frame) => events.push(`frame ${frame.kind}`),
    end: () => {
      ended = true;
    },
  };
  return { receiver, lines, events, isEnded: () => ended };
}

describe("memoryTransportPair", () => {
  it("links two peers frame for frame, both ways, as stdio does", async () => {
    const [hostEnd, pluginEnd] = memoryTransportPair();
    const plugin: JsonRpcPeer = new JsonRpcPeer({
      transport: pluginEnd,
      log: quiet,
      handleRequest: async (request): Promise<unknown> => ({
        asked: await plugin.request("host/echo", request.params),
      }),
    });
    const host = new JsonRpcPeer({
      transport: hostEnd,
      log: quiet,
      handleRequest: (request) => request.params,
    });
    await expect(host.request("ask", { q: 1 })).resolves.toEqual({ asked: { q: 1 } });
    const many = await Promise.all(Array.from({ length: 500 }, (_, n) => host.request("ask", [n])));
    expect(many).toEqual(Array.from({ length: 500 }, (_, n) => ({ asked: [n] })));
  });

  it("refuses a second receiver on the same end", () => {
    const [a] = memoryTransportPair();
    a.open(recorder().receiver);
    expect(() => a.open(recorder().receiver)).toThrow(/already open/);
  });

  it("delivers lines in order, split and joined as written, then the end after them", async () => {
    const [a, b] = memoryTransportPair();
    const seen = recorder();
    b.open(seen.receiver);
    await a.writeRaw('{"n":1}\n{"n"');
    await a.writeRaw(':2}\r\n\n   \n{"n":3}');
    a.endOutput();
    await turns(3);
    expect(seen.lines).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    expect(seen.isEnded()).toBe(true);
  });

  it("reads with each end's own line limit", async () => {
    const [a, b] = memoryTransportPair({ maxLineBytes: 1024 }, { maxLineBytes: 16 });
    const atA = recorder();
    const atB = recorder();
    a.open(atA.receiver);
    b.open(atB.receiver);
    await a.writeRaw(`${"x".repeat(40)}\nshort\n`);
    await b.writeRaw(`${"y".repeat(40)}\n`);
    expect(atB.events).toEqual(["oversized 40"]);
    expect(atB.lines).toEqual(["short"]);
    expect(atA.lines).toEqual(["y".repeat(40)]);
  });

  it("holds input while paused, asks the writer to wait past 64 KiB, and loses nothing", async () => {
    const [a, b] = memoryTransportPair();
    const seen = recorder();
    b.open(seen.receiver);
    b.pause();
    const line = `${"z".repeat(1023)}\n`;
    const accepted: boolean[] = [];
    const confirmed: Promise<void>[] = [];
    for (let i = 0; i < 100; i += 1) {
      confirmed.push(
        new Promise((resolve, reject) => {
          accepted.push(a.output.stream.write(line, (error) => (error ? reject(error) : resolve())));
        }),
      );
    }
    await turns(3);
    expect(seen.lines).toEqual([]);
    expect(accepted.slice(0, 64).every(Boolean)).toBe(true);
    expect(accepted.slice(64).some(Boolean)).toBe(false);
    let drained = false;
    a.output.stream.once("drain", () => {
      drained = true;
    });
    b.resume();
    await Promise.all(confirmed);
    expect(seen.lines).toHaveLength(100);
    expect(drained).toBe(true);
  });

  it("cut ends both directions: the other side reads EOF and its writes fail", async () => {
    const [a, b] = memoryTransportPair();
    const atA = recorder();
    const atB = recorder();
    a.open(atA.receiver);
    b.open(atB.receiver);
    a.cut();
    await turns(2);
    expect(atA.isEnded()).toBe(true);
    expect(atB.isEnded()).toBe(true);
    await expect(b.writeRaw("late\n")).rejects.toThrow(/write after end/);
  });

  it("a peer whose other side was cut reports its output broken", async () => {
    const [a, b] = memoryTransportPair();
    let broken: Error | undefined;
    const peer = new JsonRpcPeer({
      transport: b,
      log: quiet,
      handleRequest: () => null,
      onOutputBroken: (error) => {
        broken = error;
      },
    });
    a.open(recorder().receiver);
    a.cut();
    await turns(2);
    expect(peer.inputHasEnded).toBe(true);
    peer.notify("anything");
    await turns(2);
    expect(broken?.message).toMatch(/write after end/);
    expect(peer.outputBroken).toBe(true);
  });
});
