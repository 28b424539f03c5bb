import { fileURLToPath } from "node:url";
import { manifestOf } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import { E2ePlugin } from "../fixtures/e2e-plugin.js";
import { bundleWithTsup } from "../helpers/build-fixture.js";
import { bundledPlugin } from "../helpers/bundled-fixture.js";

const entry = fileURLToPath(new URL("../fixtures/e2e-main.ts", import.meta.url));

describe("a decorated plugin bundled with tsup (SWC), spawned and driven over real pipes", () => {
  const served = bundledPlugin(() => bundleWithTsup(entry));

  const invoke = (tool: string, args: unknown, context: Record<string, unknown> = {}) =>
    served.plugin.request("invoke", {
      tool,
      arguments: args,
      context: { invoke_id: `inv-${tool}`, ...context },
    });

  test("describe answers the manifest the source gives in-process", async () => {
    const frame = await served.plugin.request("describe");
    expect(frame.result).toEqual(manifestOf(E2ePlugin));
  });

  test("health reports the @Health() result once @OnStart() ran", async () => {
    const frame = await served.plugin.request("health");
    expect(frame.result).toEqual({ status: "ready", message: "fine", details: { tools: 6 } });
    expect(served.plugin.stderr()).toContain("e2e-fixture started");
  });

  test("greet: a @Param tool with a default", async () => {
    expect((await invoke("greet", { name: "Ada" })).result).toMatchObject({
      success: true,
      data: "Hello, Ada.",
    });
    expect((await invoke("greet", { name: "Ada", excited: "true" })).result).toMatchObject({
      success: true,
      data: "Hello, Ada!",
    });
  });

  test("add_numbers: integers coerced from strings, non-integers rejected with -32602", async () => {
    expect((await invoke("add_numbers", { a: "2", b: 3 })).result).toMatchObject({
      success: true,
      data: { sum: 5 },
    });
    const frame = await invoke("add_numbers", { a: "2.5", b: 3 });
    expect(frame.error).toMatchObject({
      code: -32602,
      data: {
        issues: [{ path: "a", message: 'expected an integer, got the string "2.5"', expected: "integer" }],
      },
    });
  });

  test("unknown argument names: -32602 listing them and the expected names", async () => {
    const frame = await invoke("greet", { nme: "Ada" });
    expect(frame.error?.code).toBe(-32602);
    expect(frame.error?.message).toBe(
      'Invalid arguments for tool "greet": unknown argument "nme" (expected: name, excited); name: is required',
    );
    expect(frame.error?.data).toMatchObject({
      unknown: ["nme"],
      expected: ["name", "excited"],
      issues: [
        { path: "nme", kind: "unknown_argument" },
        { path: "name", message: "is required" },
      ],
    });
  });

  test("forecast: an @Args() DTO with a nested object, defaults and validation", async () => {
    const ok = await invoke("forecast", { location: { city: "Oslo" }, days: "2" });
    expect(ok.result).toMatchObject({
      success: true,
      data: {
        city: "Oslo",
        days: [
          { day: 0, unit: "c" },
          { day: 1, unit: "c" },
        ],
        locationIsInstance: true,
      },
    });
    const bad = await invoke("forecast", { location: { town: "Oslo" }, days: 9 });
    expect(bad.error?.code).toBe(-32602);
    expect(bad.error?.data).toEqual({
      issues: [
        {
          path: "location.town",
          message: "unknown argument; expected: city, country",
          expected: "city, country",
          kind: "unknown_property",
        },
        { path: "location.city", message: "is required", expected: "string" },
        { path: "days", message: "must be at least 1 and at most 7, got 9", expected: "integer from 1 to 7" },
      ],
    });
    // Checked by class-validator after the manifest's schema: @IsNotEmpty() has no manifest field.
    const empty = await invoke("forecast", { location: { city: "" } });
    expect(empty.error?.data).toEqual({
      issues: [{ path: "location.city", message: "should not be empty" }],
    });
  });

  test("secret: the credential from context.credentials; missing → success: false", async () => {
    expect((await invoke("secret", {}, { credentials: { E2E_TOKEN: "abcd" } })).result).toMatchObject({
      success: true,
      data: { tokenLength: 4 },
    });
    expect((await invoke("secret", {})).result).toMatchObject({
      success: false,
      error: expect.stringContaining("credential E2E_TOKEN is not configured"),
    });
  });

  test("fail: a thrown ToolError is success: false with the message", async () => {
    expect((await invoke("fail", { reason: "test" })).result).toMatchObject({
      success: false,
      error: "failed on purpose: test",
    });
  });

  test("context_info: @Ctx() injects the invoke context", async () => {
    expect((await invoke("context_info", {})).result).toMatchObject({
      success: true,
      data: { tool: "context_info", invokeId: "inv-context_info", hasTime: true },
    });
  });

  test("an unknown tool is -32601", async () => {
    expect((await invoke("nope", {})).error?.code).toBe(-32601);
  });

  test("stdout carried only JSON-RPC frames; closing stdin exits 0", async () => {
    for (const line of served.plugin.stdoutLines) expect(() => JSON.parse(line)).not.toThrow();
    expect(await served.plugin.close()).toBe(0);
  });
});
