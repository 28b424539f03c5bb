import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { createLogger } from "@executa/core";
import { DefinitionError, manifestOf, Plugin, serve, Tool } from "@executa/decorators";
import { expect, test } from "vitest";
import { E2ePlugin } from "../fixtures/e2e-plugin.js";

function streams() {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines = createInterface({ input: output })[Symbol.asyncIterator]();
  const next = async () =>
    JSON.parse(String((await lines.next()).value)) as { id: number; result?: unknown; error?: unknown };
  return { input, output, next };
}

test("serve() on given streams answers describe and invoke, with server options passed to core", async () => {
  const { input, output, next } = streams();
  const server = serve(E2ePlugin, {
    input,
    output,
    concurrency: 1,
    log: createLogger("test", { write: () => {} }),
  });
  input.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "describe" })}\n`);
  expect((await next()).result).toEqual(manifestOf(E2ePlugin));
  input.write(
    `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "invoke", params: { tool: "add_numbers", arguments: { a: 1, b: "2" } } })}\n`,
  );
  expect((await next()).result).toMatchObject({ success: true, data: { sum: 3 } });
  input.end();
  expect(await server.done).toBe("eof");
});

test("serve() on given streams throws a startup error instead of exiting", () => {
  @Plugin({ name: "broken", version: "1.0.0", description: "Broken." })
  class Broken {
    @Tool({ description: "" }) run() {}
  }
  const { input, output } = streams();
  expect(() => serve(Broken, { input, output })).toThrow(DefinitionError);
  expect(() => serve(Broken, { input, output })).toThrow(
    expect.objectContaining({ code: "DESCRIPTION_MISSING" }),
  );
});
