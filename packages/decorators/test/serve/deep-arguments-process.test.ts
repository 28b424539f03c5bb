import { fileURLToPath } from "node:url";
import { MAX_FRAME_BYTES } from "@executa/core";
import { describe, expect, test } from "vitest";
import { bundleWithTsup } from "../helpers/build-fixture.js";
import { bundledPlugin } from "../helpers/bundled-fixture.js";
import type { Frame } from "../helpers/spawn-plugin.js";

// Hostile arguments against a decorated plugin bundled like a real one and driven over
// real pipes: each is answered -32602 in a line under the 16 MiB ceiling, never -32603
// ("Maximum call stack size exceeded") or an over-ceiling line, and the plugin keeps serving.
const entry = fileURLToPath(new URL("../fixtures/hostile-args-main.ts", import.meta.url));

const served = bundledPlugin(() => bundleWithTsup(entry));

/** Sends an invoke whose `arguments` are given as raw JSON text. */
function invokeRaw(tool: string, argumentsJson: string): Promise<Frame> {
  const id = `raw-${Math.random().toString(36).slice(2)}`;
  return new Promise((resolve, reject) => {
    const onLine = (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let lf = buffered.indexOf("\n");
      while (lf !== -1) {
        const line = buffered.slice(0, lf);
        buffered = buffered.slice(lf + 1);
        if (line.includes(`"id":"${id}"`)) {
          served.plugin.child.stdout.off("data", onLine);
          clearTimeout(timer);
          resolve(JSON.parse(line) as Frame);
          return;
        }
        lf = buffered.indexOf("\n");
      }
    };
    let buffered = "";
    const timer = setTimeout(() => {
      served.plugin.child.stdout.off("data", onLine);
      reject(new Error(`no answer to ${id}; stderr: ${served.plugin.stderr()}`));
    }, 30_000);
    served.plugin.child.stdout.on("data", onLine);
    void served.plugin.exited.then((code) =>
      reject(new Error(`plugin exited (${code}): ${served.plugin.stderr()}`)),
    );
    served.plugin.child.stdin.write(
      `{"jsonrpc":"2.0","id":"${id}","method":"invoke","params":{"tool":"${tool}","arguments":${argumentsJson}}}\n`,
    );
  });
}

async function expectStillServing(): Promise<void> {
  const frame = await served.plugin.request("invoke", { tool: "mixed", arguments: { text: "still here" } });
  expect(frame.result).toMatchObject({ success: true, data: { text: "still here", count: 1 } });
  for (const line of served.plugin.stdoutLines)
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_FRAME_BYTES);
}

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("deep arguments", () => {
  for (const depth of [100_000, 1_000_000]) {
    test(`${depth} nesting levels in arguments answer -32602`, async () => {
      const frame = await invokeRaw("mixed", `{"text":"a","filter":{"x":${nested(depth)}}}`);
      expect(frame.error).toMatchObject({
        code: -32602,
        message: expect.stringContaining("nested deeper than 64"),
      });
      await expectStillServing();
    });
  }

  test("100 000 levels inside a DTO tool's arguments answer -32602", async () => {
    const frame = await invokeRaw("route", `{"title":"t","stops":${nested(100_000)}}`);
    expect(frame.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("nested deeper than 64"),
    });
    await expectStillServing();
  });

  test("100 000 levels in a JSON string given for an object argument answer -32602", async () => {
    const deepJson = JSON.stringify(`{"x":${nested(100_000)}}`);
    const frame = await invokeRaw("mixed", `{"text":"a","filter":${deepJson}}`);
    expect(frame.error).toMatchObject({
      code: -32602,
      data: { issues: [{ path: "filter", message: expect.stringContaining("nested deeper than 64") }] },
    });
    await expectStillServing();
  });
});

describe("huge invalid arguments", () => {
  for (const count of [123_000, 125_000]) {
    test(`${count} wrong-typed array elements answer -32602 with the first 100 issues`, async () => {
      const ids = JSON.stringify(Array.from({ length: count }, (_, i) => `not-a-number-${i}`));
      const frame = await invokeRaw("mixed", `{"text":"a","ids":${ids}}`);
      expect(frame.error).toMatchObject({
        code: -32602,
        message: expect.stringContaining(`and ${count - 20} more issues not shown`),
        data: { issues_not_shown: count - 100 },
      });
      expect((frame.error!.data as { issues: unknown[] }).issues).toHaveLength(100);
      await expectStillServing();
    });
  }

  test("125 000 wrong-typed elements in a DTO's array answer -32602", async () => {
    const ids = JSON.stringify(Array.from({ length: 125_000 }, () => "x"));
    const frame = await invokeRaw("route", `{"title":"t","stops":[],"ids":${ids}}`);
    expect(frame.error).toMatchObject({ code: -32602, data: { issues_not_shown: 124_900 } });
    await expectStillServing();
  });

  test("200 000 unknown argument names answer -32602 naming the first ones", async () => {
    const names = Array.from({ length: 200_000 }, (_, i) => `"unknown_argument_name_${i}":1`).join(",");
    const frame = await invokeRaw("mixed", `{"text":"a",${names}}`);
    expect(frame.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("and 199980 more (expected: text, count, ids, filter, flag)"),
      data: { unknown_count: 200_000, issues_not_shown: 199_900 },
    });
    expect((frame.error!.data as { unknown: unknown[] }).unknown).toHaveLength(100);
    await expectStillServing();
  });

  test("a 9 MiB unknown argument name is echoed as a short preview", async () => {
    const name = "n".repeat(9 * 1024 * 1024);
    const frame = await invokeRaw("mixed", `{"text":"a","${name}":1}`);
    expect(frame.error?.code).toBe(-32602);
    expect(JSON.stringify(frame).length).toBeLessThan(20_000);
    await expectStillServing();
  });
});
