import { JsonRpcErrorCode } from "@executa/core";
import {
  buildPlugin,
  createParamDecorator,
  Health,
  Host,
  type HostClients,
  InvalidParamsError,
  Param,
  Plugin,
  Tool,
  ToolError,
} from "@executa/decorators";
import { describe, expect, test } from "vitest";
import { CatalogPlugin, Level, Unit } from "../fixtures/catalog-plugin.js";
import { callTool, rejectionOf } from "../helpers/invoke.js";

const catalog = buildPlugin(CatalogPlugin);

describe("@Param binding", () => {
  test("arguments are coerced, defaults applied, positions filled", async () => {
    const result = await callTool(catalog, "scalars", {
      text: "hi",
      ratio: "0.5",
      meta: '{"k":1}',
      flag: "true",
    });
    expect(result).toEqual({ text: "hi", count: 1, ratio: 0.5, flag: true, meta: { k: 1 } });
  });

  test("absent and null optional arguments are passed as undefined", async () => {
    expect(await callTool(catalog, "scalars", { text: "hi", ratio: 1, meta: {}, flag: null })).toMatchObject({
      flag: undefined,
    });
    expect(await callTool(catalog, "scalars", { text: "hi", ratio: 1, meta: {} })).toMatchObject({
      flag: undefined,
    });
  });

  test("unknown argument names answer -32602 listing them and the expected names", async () => {
    const error = await rejectionOf(
      callTool(catalog, "scalars", { txt: "hi", ratio: 1, meta: {}, colour: "red" }),
    );
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error.code).toBe(JsonRpcErrorCode.INVALID_PARAMS);
    expect(error.message).toBe(
      'Invalid arguments for tool "scalars": unknown arguments "txt", "colour" (expected: text, count, ratio, meta, flag); text: is required',
    );
    expect(error.data).toEqual({
      issues: [
        {
          path: "txt",
          message: "unknown argument; expected: text, count, ratio, meta, flag",
          expected: "text, count, ratio, meta, flag",
          kind: "unknown_argument",
        },
        {
          path: "colour",
          message: "unknown argument; expected: text, count, ratio, meta, flag",
          expected: "text, count, ratio, meta, flag",
          kind: "unknown_argument",
        },
        { path: "text", message: "is required", expected: "string" },
      ],
      unknown: ["txt", "colour"],
      expected: ["text", "count", "ratio", "meta", "flag"],
    });
  });

  test.each([
    ["missing required", { ratio: 1, meta: {} }, "text", "is required"],
    ["type mismatch", { text: 5, ratio: 1, meta: {} }, "text", "expected a string, got the number 5"],
    [
      '"5.5" for an integer',
      { text: "a", count: "5.5", ratio: 1, meta: {} },
      "count",
      'expected an integer, got the string "5.5"',
    ],
    ["array for an object", { text: "a", ratio: 1, meta: [] }, "meta", "expected an object, got an array"],
    ["not a boolean", { text: "a", ratio: 1, meta: {}, flag: "maybe" }, "flag", "expected a boolean"],
  ])("%s → -32602 with the path", async (_name, args, path, message) => {
    const error = await rejectionOf(callTool(catalog, "scalars", args));
    expect(error).toBeInstanceOf(InvalidParamsError);
    const issues = (error.data as { issues: { path: string; message: string }[] }).issues;
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path });
    expect(issues[0]?.message).toContain(message);
  });

  test("enums are enforced, TypeScript enum values accepted, numeric strings coerced", async () => {
    expect(await callTool(catalog, "pick_enums", { level: "2", mode: "fast", size: 3 })).toEqual({
      unit: Unit.Celsius,
      level: Level.High,
      mode: "fast",
      size: 3,
    });
    const error = await rejectionOf(
      callTool(catalog, "pick_enums", { unit: "k", level: 3, mode: "fast", size: 1 }),
    );
    expect((error.data as { issues: { path: string }[] }).issues.map((issue) => issue.path)).toEqual([
      "unit",
      "level",
    ]);
  });

  test("arrays: JSON strings parsed, single values wrapped, elements checked", async () => {
    const result = await callTool(catalog, "arrays", {
      tags: "one",
      ints: "[1,2]",
      numbers: 1.5,
      matrix: [["1"]],
    });
    expect(result).toEqual({
      tags: ["one"],
      ints: [1, 2],
      numbers: [1.5],
      flags: undefined,
      records: undefined,
      matrix: [[1]],
      colors: ["red"],
    });
    const error = await rejectionOf(
      callTool(catalog, "arrays", { tags: [], ints: [1, "x"], numbers: [], colors: ["blue"] }),
    );
    expect((error.data as { issues: { path: string }[] }).issues.map((issue) => issue.path)).toEqual([
      "ints.1",
      "colors.0",
    ]);
  });

  test("defaults are fresh copies per invoke", async () => {
    const first = (await callTool(catalog, "arrays", { tags: [], ints: [], numbers: [] })) as {
      colors: string[];
    };
    first.colors.push("green");
    const second = (await callTool(catalog, "arrays", { tags: [], ints: [], numbers: [] })) as {
      colors: string[];
    };
    expect(second.colors).toEqual(["red"]);
  });

  test("__proto__, constructor and prototype keys are stripped at every depth before anything else", async () => {
    const args = JSON.parse(
      '{"text":"a","ratio":1,"meta":{"__proto__":{"polluted":true},"ok":1,"nested":{"constructor":{"prototype":{"x":1}}}},"__proto__":{"polluted":true},"prototype":1}',
    );
    const result = (await callTool(catalog, "scalars", args)) as { meta: Record<string, unknown> };
    expect(result.meta).toEqual({ ok: 1, nested: {} });
    expect(Object.getPrototypeOf(result.meta)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("arguments that are not an object → -32602", async () => {
    const error = await rejectionOf(callTool(catalog, "scalars", ["a"]));
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error.message).toContain("arguments must be an object");
  });
});

describe("@Credential and @Ctx", () => {
  test("declared credentials and the context are injected", async () => {
    const result = await callTool(catalog, "whoami", {}, { CATALOG_API_KEY: "sk-1" });
    expect(result).toEqual({ key: "sk-1", region: "eu", tool: "whoami" });
  });

  test("a required credential that is not configured is a tool failure, the method does not run", async () => {
    const error = await rejectionOf(callTool(catalog, "whoami", {}));
    expect(error).toBeInstanceOf(ToolError);
    expect(error.message).toContain("credential CATALOG_API_KEY is not configured");
  });

  test("a tool without arguments rejects any argument", async () => {
    const error = await rejectionOf(callTool(catalog, "whoami", { key: "x" }, { CATALOG_API_KEY: "sk" }));
    expect(error.message).toContain('unknown argument "key" (expected: none)');
  });
});

describe("custom parameter decorators", () => {
  const InvokeId = createParamDecorator((_data, { context }) => context.invokeId, "@InvokeId()");
  const Upper = createParamDecorator(
    (name: string, { args }) => String(args[name]).toUpperCase(),
    "@Upper()",
  );

  @Plugin({ name: "custom", version: "1.0.0", description: "Custom parameter decorators." })
  class Custom {
    @Tool({ description: "Echo." })
    echo(@Param("word") word: string, @InvokeId() id: string, @Upper("word") upper: string) {
      return { word, id, upper };
    }
  }

  test("resolve per invoke from the checked arguments and the context, adding nothing to the manifest", async () => {
    const definition = buildPlugin(Custom);
    expect(definition.manifest.tools[0]?.parameters?.map((parameter) => parameter.name)).toEqual(["word"]);
    expect(await callTool(definition, "echo", { word: "hi" })).toEqual({
      word: "hi",
      id: "test-invoke",
      upper: "HI",
    });
  });
});

describe("@Host()", () => {
  @Plugin({ name: "hosted", version: "1.0.0", description: "Uses the host." })
  class Hosted {
    @Tool({ description: "Reads storage." })
    async read(@Param("key") key: string, @Host() host: HostClients) {
      try {
        return await host.storage.get(key, { scope: "user" });
      } catch (error) {
        return { code: (error as { code?: number }).code };
      }
    }
  }

  test("injects the invoke's host clients, whose calls fail locally on a v1 host", async () => {
    // The test host negotiated 1.1, so the storage call fails before anything is sent.
    expect(await callTool(buildPlugin(Hosted), "read", { key: "k" })).toEqual({ code: -32021 });
    expect(buildPlugin(Hosted).manifest.tools[0]?.parameters?.map((p) => p.name)).toEqual(["key"]);
  });
});

describe("health and lifecycle hooks", () => {
  test("start, health, stop run on the one instance", async () => {
    const definition = buildPlugin(CatalogPlugin);
    const context = { protocolVersion: "1.1" };
    expect(await definition.health?.(context)).toEqual({ status: "initializing" });
    await definition.onStart?.();
    expect(await definition.health?.(context)).toEqual({ status: "ready" });
    await definition.onStop?.();
    expect(await definition.health?.(context)).toEqual({ status: "initializing" });
  });

  test("server options from @Plugin reach the definition, buildPlugin options override them", () => {
    expect(buildPlugin(CatalogPlugin).options).toEqual({ concurrency: 2 });
    expect(buildPlugin(CatalogPlugin, { server: { concurrency: 5, shutdownGraceMs: 10 } }).options).toEqual({
      concurrency: 5,
      shutdownGraceMs: 10,
    });
  });

  test("a factory supplies the instance", async () => {
    const instance = new CatalogPlugin();
    instance.started = true;
    const definition = buildPlugin(CatalogPlugin, { factory: () => instance });
    expect(await definition.health?.({ protocolVersion: "1.1" })).toEqual({ status: "ready" });
  });

  test("a health method returning something else is an error naming the allowed statuses", async () => {
    @Plugin({ name: "sick", version: "1.0.0", description: "Bad health." })
    class Sick {
      @Tool({ description: "Noop." }) noop() {}
      @Health() check() {
        return "healthy";
      }
    }
    const error = await rejectionOf(Promise.resolve(buildPlugin(Sick).health?.({ protocolVersion: "1.1" })));
    expect(error.message).toBe(
      'Sick.check() returned "healthy"; return one of ready, error, initializing or { status, message, details }',
    );
  });
});
