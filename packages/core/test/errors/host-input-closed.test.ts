import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { HOST_INPUT_CLOSED, isHostInputClosed } from "../../src/errors/host-input-closed.js";
import { createLogger } from "../../src/log/logger.js";
import { createPluginServer } from "../../src/server/create-server.js";
import type { PluginServer } from "../../src/server/plugin-server.js";
import { memoryPipe } from "../helpers/memory-pipe.js";

const manifest = {
  name: "asks-host",
  version: "0.1.0",
  description: "in-memory",
  tools: [{ name: "ask", description: "Sends one reverse call and returns its reply." }],
};

describe("a reverse call pending when the host's input ends", () => {
  it("fails with -32603 whose data names the kind, and the invoke's answer carries it", async () => {
    const pipe = memoryPipe();
    let server!: PluginServer;
    let sent!: () => void;
    const called = new Promise<void>((resolve) => (sent = resolve));
    server = createPluginServer(
      {
        manifest,
        handlers: {
          ask: () => {
            const answer = server.request("custom/echo", {});
            sent();
            return answer;
          },
        },
      },
      {
        input: pipe.input,
        output: pipe.output,
        log: createLogger("asks-host", { write: () => {} }),
      },
    );
    pipe.send({ jsonrpc: "2.0", id: 1, method: "invoke", params: { tool: "ask" } });
    await called;
    (pipe.input as PassThrough).end();
    const { error } = await pipe.reply(1);
    expect(error).toEqual({
      code: -32603,
      message: "host closed stdin; no reply can arrive",
      data: { reason: HOST_INPUT_CLOSED },
    });
    expect(isHostInputClosed(error as { code: unknown; data?: unknown })).toBe(true);
    expect(await server.done).toBe("eof");
  });

  it("is recognised by its kind, not by a message that happens to say the same", () => {
    expect(isHostInputClosed({ code: -32603, data: { reason: HOST_INPUT_CLOSED } })).toBe(true);
    expect(
      isHostInputClosed({ code: -32603, message: "host closed stdin; no reply can arrive" } as never),
    ).toBe(false);
    expect(isHostInputClosed({ code: -32000, data: { reason: HOST_INPUT_CLOSED } })).toBe(false);
    expect(isHostInputClosed(undefined)).toBe(false);
  });
});
