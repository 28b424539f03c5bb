import { afterEach, describe, expect, it } from "vitest";
import {
  expectInvalidParams,
  expectSuccess,
  expectToolError,
  type PluginTestClient,
  runInProcess,
} from "../../src/index.js";
import { Counter } from "../fixtures/counter-plugin.js";

let plugin: PluginTestClient | undefined;
afterEach(async () => {
  await plugin?.close();
  plugin = undefined;
});

describe("runInProcess with a decorated class", () => {
  it("compiles the class and serves it with storage and credentials", async () => {
    plugin = await runInProcess(Counter, { credentials: { COUNTER_OWNER: "me" } });
    expect(plugin.manifest?.tools.map((tool) => tool.name)).toEqual(["add", "read", "owner", "suggest_name"]);
    expectSuccess(await plugin.invoke("add", { counter: "x", by: 5 }));
    expect(expectSuccess(await plugin.invoke<{ value: number }>("read", { counter: "x" })).value).toBe(5);
    expect(expectSuccess(await plugin.invoke<{ owner: string }>("owner")).owner).toBe("me");
    expectToolError(await plugin.invoke("read", { counter: "y" }), /no counter named y/);
    await expectInvalidParams(plugin.invoke("add", { counter: 1 }), ["counter"]);
    const issues = await expectInvalidParams(plugin.invoke("add", { counter: "x", by: 0 }), ["by"]);
    expect(issues[0]?.message).toMatch(/1/);
  });

  it("creates the instance with the factory, to inject fakes", async () => {
    plugin = await runInProcess(Counter, {
      factory: () => new Counter({ now: () => "2000-01-01T00:00:00Z" }),
    });
    const data = expectSuccess(await plugin.invoke<{ at: string }>("add", { counter: "t" }));
    expect(data.at).toBe("2000-01-01T00:00:00Z");
  });

  it("keeps storage per client: a new client starts empty", async () => {
    plugin = await runInProcess(Counter);
    expectSuccess(await plugin.invoke("add", { counter: "c" }));
    await plugin.close();
    plugin = await runInProcess(Counter);
    expectToolError(await plugin.invoke("read", { counter: "c" }));
  });

  it("reports a class that is not a plugin with the decorators' error", async () => {
    class NotAPlugin {}
    await expect(runInProcess(NotAPlugin)).rejects.toThrow(/@Plugin/);
  });
});
