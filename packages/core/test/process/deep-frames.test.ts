import { afterEach, describe, expect, it } from "vitest";
import { type FixtureProcess, invoke, spawnFixture } from "../helpers/spawn-fixture.js";

const DEPTH = 5000;
const deepArray = `${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`;

describe("deep frames over a real process", () => {
  let plugin: FixtureProcess | undefined;
  afterEach(() => {
    plugin?.child.kill("SIGKILL");
    plugin = undefined;
  });

  it("answers the request written after a 5 000-deep id-less response in the same chunk", async () => {
    plugin = spawnFixture();
    plugin.child.stdin.write(
      `{"jsonrpc":"2.0","result":${deepArray}}\n` +
        `{"id":{"x":1},"result":${deepArray}}\n` +
        `{"jsonrpc":"2.0","id":"after-deep","method":"health"}\n`,
    );
    const reply = await plugin.reply("after-deep");
    expect(reply.error).toBeUndefined();
    expect(reply.result).toBeDefined();
    expect(plugin.stderr()).not.toMatch(/RangeError|uncaught/i);
    expect(plugin.stderr()).toMatch(/dropped a response without a usable id/);
  });

  it("answers a 5 000-deep request once and keeps serving", async () => {
    plugin = spawnFixture();
    const deepArgs = `{"jsonrpc":"2.0","id":"deep-req","method":"invoke","params":${JSON.stringify(invoke("echo")).replace('"arguments":{}', `"arguments":{"text":${deepArray}}`)}}`;
    plugin.child.stdin.write(`${deepArgs}\n{"jsonrpc":"2.0","id":"next","method":"health"}\n`);
    const [deep, next] = await Promise.all([plugin.reply("deep-req"), plugin.reply("next")]);
    expect(deep.result ?? deep.error).toBeDefined();
    expect(next.result).toBeDefined();
    expect(plugin.frames.filter((f) => f.id === "deep-req")).toHaveLength(1);
    expect(plugin.stderr()).not.toMatch(/RangeError|uncaught/i);
  });
});
