import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type FixtureProcess, spawnFixture } from "../helpers/spawn-fixture.js";

const RAW_PEER = fileURLToPath(new URL("../fixtures/raw-peer.mjs", import.meta.url));

describe("responses and EOF over a real process", () => {
  let plugin: FixtureProcess | undefined;
  afterEach(() => {
    plugin?.child.kill("SIGKILL");
    plugin = undefined;
  });

  it('drops a response without "jsonrpc":"2.0" with a log line and never answers it', async () => {
    plugin = spawnFixture();
    plugin.send('{"id":77,"result":1}');
    plugin.send('{"jsonrpc":"1.0","id":78,"error":{"code":1,"message":"x"}}');
    const after = await plugin.call("health");
    expect(after.result).toBeDefined();
    expect(plugin.frames.filter((f) => f.id === 77 || f.id === 78)).toEqual([]);
    expect(plugin.frames.filter((f) => f.error?.code === -32600)).toEqual([]);
    expect(plugin.stderr()).toMatch(/dropped a response without "jsonrpc":"2.0"/);
  });

  it("rejects a reverse call made after stdin EOF at once, without writing it", async () => {
    plugin = spawnFixture({}, RAW_PEER);
    const echoed = await plugin.call("echo", { a: 1 });
    expect(echoed.result).toEqual({ a: 1 });
    plugin.child.stdin.end();
    const exit = await plugin.exited;
    expect(exit.code).toBe(0);
    expect(plugin.stderr()).toMatch(/reverse call after EOF: rejected: .*input ended/);
    expect(plugin.frames.filter((f) => f.method === "host/ping")).toEqual([]);
  });
});
