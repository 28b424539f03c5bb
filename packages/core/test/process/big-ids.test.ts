import { afterEach, describe, expect, it } from "vitest";
import { type FixtureProcess, spawnFixture } from "../helpers/spawn-fixture.js";

/** Waits until a stdout line matches. */
async function lineMatching(plugin: FixtureProcess, pattern: RegExp, timeoutMs = 10_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const line = plugin.stdoutLines.find((l) => pattern.test(l));
    if (line) return line;
    if (Date.now() > until) throw new Error(`no stdout line matching ${pattern}; stderr: ${plugin.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("numeric ids a JavaScript number cannot hold, over a real process", () => {
  let plugin: FixtureProcess | undefined;
  afterEach(() => {
    plugin?.child.kill("SIGKILL");
    plugin = undefined;
  });

  it.each([
    ["2^53 + 1", "9007199254740993"],
    ["2^64", "18446744073709551616"],
    ["a negative big id", "-9007199254740995"],
    ["exponent notation", "1e2"],
  ])("echoes %s exactly in result, error and invalid-request answers", async (_name, idText) => {
    plugin = spawnFixture();
    plugin.send(`{"jsonrpc":"2.0","id":${idText},"method":"health"}`);
    plugin.send(`{"jsonrpc":"2.0","id":${idText},"method":"no/such/method"}`);
    plugin.send(`{"jsonrpc":"2.0","id":${idText},"method":"health","params":"not an object"}`);
    const exact = new RegExp(`"id":${idText.replace(/[+.]/g, "\\$&")}[,}]`);
    const exactWith = (part: string) => new RegExp(`${exact.source}.*${part}`);
    await lineMatching(plugin, exactWith('"result"'));
    await lineMatching(plugin, exactWith('"code":-32601'));
    await lineMatching(plugin, exactWith('"code":-32600'));
    const lines = plugin.stdoutLines.filter((line) => exact.test(line));
    expect(lines, plugin.stdoutLines.join("\n")).toHaveLength(3);
    expect(lines.filter((line) => line.includes('"result"'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('"code":-32601'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('"code":-32600'))).toHaveLength(1);
  });

  it("keeps small integer ids as they are", async () => {
    plugin = spawnFixture();
    plugin.send('{"jsonrpc":"2.0","id":42,"method":"health"}');
    expect(await lineMatching(plugin, /"id":42[,}]/)).toContain('"result"');
  });
});
