import { describe, expect, it } from "vitest";
import { validateManifest } from "../../src/manifest/validate-manifest.js";

const valid = {
  name: "my-tool",
  version: "1.0.0",
  description: "What it does.",
  tools: [
    {
      name: "do_something",
      description: "Does it.",
      timeout: 60,
      parameters: [
        { name: "input_text", type: "string", description: "Input.", required: true },
        { name: "count", type: "integer", description: "Count.", required: false, default: 1 },
        { name: "tags", type: "array", items: { type: "string" }, description: "Tags.", required: false },
        { name: "ids", type: "array", items_type: "integer", description: "Ids." },
      ],
    },
  ],
  credentials: [{ name: "MY_API_KEY", required: true, sensitive: true, default: "x" }],
  runtime: { type: "uv", min_version: "0.1.0" },
  host_capabilities: ["llm.sample", "aps.kv"],
};

const paths = (manifest: unknown, severity: "error" | "warning" = "error") =>
  validateManifest(manifest)
    .filter((issue) => issue.severity === severity)
    .map((issue) => issue.path);

describe("validateManifest", () => {
  it("accepts the spec's example manifest", () => {
    expect(validateManifest(valid)).toEqual([]);
  });

  it("requires name, version, description and tools", () => {
    expect(paths({})).toEqual(["name", "version", "description", "tools"]);
    expect(paths("manifest")).toEqual([""]);
  });

  it("checks the name format and SemVer", () => {
    expect(paths({ ...valid, name: "My Tool" })).toEqual(["name"]);
    expect(paths({ ...valid, name: "snake_case-and-kebab2" })).toEqual([]);
    for (const name of ["2fa-helper", "-tool", "tool-", "a--b", "Tool"])
      expect(paths({ ...valid, name }), name).toEqual(["name"]);
    for (const version of ["1.0", "v1.0.0", "01.0.0", "1.0.0.0"])
      expect(paths({ ...valid, version })).toEqual(["version"]);
    for (const version of ["0.0.1", "1.2.3-beta.1", "1.2.3+build.5"])
      expect(paths({ ...valid, version })).toEqual([]);
  });

  it("needs at least one tool, with unique names and descriptions", () => {
    expect(paths({ ...valid, tools: [] })).toEqual(["tools"]);
    const tool = { name: "a", description: "A." };
    expect(paths({ ...valid, tools: [tool, tool] })).toEqual(["tools[1].name"]);
    expect(paths({ ...valid, tools: [{ name: "a" }] })).toEqual(["tools[0].description"]);
  });

  it("checks timeouts and streaming", () => {
    const tools = (extra: object) => ({ ...valid, tools: [{ name: "a", description: "A.", ...extra }] });
    expect(paths(tools({ timeout: "30" }))).toEqual(["tools[0].timeout"]);
    expect(paths(tools({ timeout: 0 }))).toEqual(["tools[0].timeout"]);
    expect(paths(tools({ timeout: 1.5 }))).toEqual(["tools[0].timeout"]);
    expect(paths(tools({ streaming: "no" }))).toEqual(["tools[0].streaming"]);
  });

  it("checks parameter types, required booleans and duplicates", () => {
    const withParameters = (parameters: unknown[]) => ({
      ...valid,
      tools: [{ name: "a", description: "A.", parameters }],
    });
    expect(paths(withParameters([{ name: "x", type: "str", description: "X" }]))).toEqual([
      "tools[0].parameters[0].type",
    ]);
    expect(paths(withParameters([{ name: "x", description: "X" }]))).toEqual(["tools[0].parameters[0].type"]);
    expect(paths(withParameters([{ name: "x", type: "string", description: "X", required: "yes" }]))).toEqual(
      ["tools[0].parameters[0].required"],
    );
    expect(
      paths(
        withParameters([
          { name: "x", type: "string", description: "X" },
          { name: "x", type: "number", description: "X" },
        ]),
      ),
    ).toEqual(["tools[0].parameters[1].name"]);
    expect(
      paths(withParameters([{ name: "x", type: "array", items: { type: "thing" }, description: "X" }])),
    ).toEqual(["tools[0].parameters[0].items.type"]);
    expect(paths(withParameters("x" as unknown as unknown[]))).toEqual(["tools[0].parameters"]);
  });

  it("warns about legal but unhelpful parameters", () => {
    const withParameter = (parameter: object) => ({
      ...valid,
      tools: [{ name: "a", description: "A.", parameters: [{ name: "x", ...parameter }] }],
    });
    expect(paths(withParameter({ type: "string" }), "warning")).toEqual([
      "tools[0].parameters[0].description",
    ]);
    expect(paths(withParameter({ type: "integer", description: "X", default: "3" }), "warning")).toEqual([
      "tools[0].parameters[0].default",
    ]);
    expect(paths(withParameter({ type: "string", description: "X", enum: ["a", 1] }), "warning")).toEqual([
      "tools[0].parameters[0].enum[1]",
    ]);
    expect(
      paths(withParameter({ type: "string", description: "X", items_type: "string" }), "warning"),
    ).toEqual(["tools[0].parameters[0]"]);
  });

  it("says which type a misplaced type-specific field belongs to", () => {
    const issues = validateManifest({
      ...valid,
      tools: [
        {
          name: "a",
          description: "A.",
          parameters: [{ name: "x", type: "object", description: "X", items: { type: "string" } }],
        },
      ],
    });
    expect(issues).toEqual([
      {
        path: "tools[0].parameters[0]",
        message: 'items / items_type only apply to arrays, but the type is "object"',
        severity: "warning",
      },
    ]);
  });

  it("says what a name must look like", () => {
    expect(validateManifest({ ...valid, name: "2fa" })).toEqual([
      {
        path: "name",
        message: '"2fa" is not a lowercase kebab/snake label starting with a letter (e.g. "my-tool")',
        severity: "error",
      },
    ]);
  });

  it("checks credentials, runtime and host capabilities", () => {
    expect(paths({ ...valid, credentials: [{ name: "A", required: "true" }, { name: "A" }] })).toEqual([
      "credentials[0].required",
      "credentials[1].name",
    ]);
    expect(paths({ ...valid, runtime: "uv" })).toEqual(["runtime"]);
    expect(paths({ ...valid, host_capabilities: "llm.sample" })).toEqual(["host_capabilities"]);
    expect(paths({ ...valid, host_capabilities: ["teleport"] }, "warning")).toEqual(["host_capabilities[0]"]);
  });
});
