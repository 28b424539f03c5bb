import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { manifestOf } from "@executa/decorators";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectInvalidParams,
  expectRpcError,
  expectSuccess,
  expectToolError,
  runBinary,
} from "../../src/index.js";
import { buildFixture } from "../fixtures/build-fixture.js";
import { Counter } from "../fixtures/counter-plugin.js";

let bundle: string;
beforeAll(async () => {
  bundle = await buildFixture("counter-main.ts");
});
afterAll(() => {
  if (bundle) rmSync(dirname(bundle), { recursive: true, force: true });
});

describe("runBinary with a built decorated plugin", () => {
  it("drives the child like the in-process client, with local providers", async () => {
    const plugin = await runBinary(process.execPath, [bundle], { credentials: { COUNTER_OWNER: "ops" } });
    try {
      expect(plugin.process.pid).toBeTypeOf("number");
      expect(plugin.negotiated?.protocolVersion).toBe("2.0");
      // The built artifact describes itself exactly as the class does from source.
      expect(plugin.manifest).toEqual(manifestOf(Counter));
      expect(
        expectSuccess(await plugin.invoke<{ value: number }>("add", { counter: "a", by: 2 })).value,
      ).toBe(2);
      expect(expectSuccess(await plugin.invoke<{ value: number }>("add", { counter: "a" })).value).toBe(3);
      expect(expectSuccess(await plugin.invoke<{ owner: string }>("owner")).owner).toBe("ops");
      expectToolError(await plugin.invoke("read", { counter: "b" }), "no counter named b");
      await expectInvalidParams(plugin.invoke("add", { by: 5 }), ["counter"]);
      await expectInvalidParams(plugin.invoke("add", { counter: "a", by: 500 }), ["by"]);
      await expectRpcError(plugin.invoke("missing"), -32601);
      expect((await plugin.health()).status).toBe("ready");
      expect(plugin.local?.store).toBeDefined();
    } finally {
      const stopped = await plugin.close();
      expect(stopped).toMatchObject({ code: 0, forced: false });
    }
  });

  it("answers sampling from the script", async () => {
    const plugin = await runBinary(process.execPath, [bundle], {
      sampling: [{ match: "/counter for (\\w+)/", reply: "sheep-counter" }],
    });
    try {
      const data = expectSuccess(await plugin.invoke<{ name: string }>("suggest_name", { topic: "sheep" }));
      expect(data.name).toBe("sheep-counter");
    } finally {
      await plugin.close();
    }
  });

  it("fails clearly when the command cannot start, leaving nothing behind", async () => {
    await expect(runBinary("/nonexistent/plugin-binary")).rejects.toThrow(/cannot start plugin/);
  });

  it("fails the handshake of a child that exits at once, and cleans up", async () => {
    await expect(
      runBinary(process.execPath, ["-e", "process.stderr.write('boom\\n'); process.exit(3)"]),
    ).rejects.toThrow(/exited with code 3.*boom/);
  });
});
