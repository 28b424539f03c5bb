import { describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/log/logger.js";
import { JsonRpcPeer } from "../../src/rpc/peer.js";
import { streamTransport } from "../../src/transport/stream-transport.js";
import { memoryPipe } from "../helpers/memory-pipe.js";

function setup() {
  const pipe = memoryPipe();
  const logs: string[] = [];
  new JsonRpcPeer({
    transport: streamTransport(pipe.input, { stream: pipe.output }),
    handleRequest: () => ({}),
    log: createLogger("test", { write: (line) => logs.push(line), level: "debug" }),
  });
  return { ...pipe, logs };
}

/** How the peer acts on the classes `classifyFrame` gives (the table is in classify-frame.test.ts). */
describe("JsonRpcPeer on frame classes", () => {
  it("drops a file-transport pointer with a log, never answering it (a host's demux reads them)", async () => {
    const { send, logs, frames, waitFor } = setup();
    send({ jsonrpc: "2.0", id: 4, __file_transport: "/tmp/executa-resp-x.json" });
    await vi.waitFor(() => expect(logs.join("")).toContain("file-transport pointer"));
    // Answers keep their order: had the pointer been answered, that answer would come first.
    send({ jsonrpc: "2.0", id: 5, method: "describe" });
    await waitFor(1);
    expect(frames.map((frame) => frame.id)).toEqual([5]);
  });

  it("answers a broken request with -32600 and the rule it breaks, echoing its exact id", async () => {
    const { send, waitFor, frames, output } = setup();
    let raw = "";
    output.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    send('{"jsonrpc":"2.0","id":9007199254740993,"method":5}');
    await waitFor(1);
    expect(frames[0]).toMatchObject({
      error: { code: -32600, message: "Invalid request: method must be a string" },
    });
    expect(raw).toContain('"id":9007199254740993,');
  });
});
