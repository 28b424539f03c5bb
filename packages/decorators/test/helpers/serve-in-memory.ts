import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { createPluginServer, type PluginDefinition } from "@executa/core";
import type { Frame } from "./spawn-plugin.js";

/** A definition served by core's plugin server on in-memory streams, in this process. */
export interface InMemoryServer {
  /** Sends a request and resolves with the response frame carrying its id. */
  request(method: string, params?: unknown): Promise<Frame>;
  /** Ends the server's input, as a host closing the plugin's stdin does. */
  end(): void;
}

/** Serves `definition` under `protocol` on in-memory streams and drives it with real frames. */
export function serveInMemory(definition: PluginDefinition, protocol: "executa" | "mcp"): InMemoryServer {
  const input = new PassThrough();
  const output = new PassThrough();
  createPluginServer(definition, { input, output, protocol });
  const pending = new Map<Frame["id"], (frame: Frame) => void>();
  createInterface({ input: output }).on("line", (line) => {
    const frame = JSON.parse(line) as Frame;
    pending.get(frame.id)?.(frame);
    pending.delete(frame.id);
  });
  let nextId = 0;
  return {
    request(method, params) {
      nextId += 1;
      const id = nextId;
      const answered = new Promise<Frame>((resolve) => pending.set(id, resolve));
      input.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      return answered;
    },
    end: () => input.end(),
  };
}
