import * as core from "@executa/core";
import * as decorators from "@executa/decorators";
import { describe, expect, it } from "vitest";

const exported = new Map<string, unknown>(Object.entries(decorators));
const coreExports = new Map<string, unknown>(Object.entries(core));

// The decorators re-export core's capability layer whole: every family of the table reaches
// authors through one import, with no list here to keep.
describe("@executa/decorators' capability exports", () => {
  it.each(Object.keys(core.CAPABILITY_FAMILIES))(
    "export the %s family's client, core's own class",
    (family) => {
      const name = `${family[0]!.toUpperCase()}${family.slice(1)}Client`;
      expect(exported.get(name)).toBeTypeOf("function");
      expect(exported.get(name)).toBe(coreExports.get(name));
    },
  );

  it("export every capability error of core, the same classes", () => {
    const errors = [...coreExports].filter(
      ([, value]) => typeof value === "function" && value.prototype instanceof core.CapabilityError,
    );
    expect(errors.map(([name]) => name)).toEqual(
      expect.arrayContaining(["SamplingError", "StorageError", "AgentError"]),
    );
    for (const [name, value] of errors) expect(exported.get(name)).toBe(value);
  });

  it("export every host-capability error-code table of core (the protocol's own stay in core), and MCP progress", () => {
    const protocol = new Set(["JsonRpcErrorCode", "ServerErrorCode", "RoutingErrorCode"]);
    const tables = [...coreExports.keys()].filter(
      (name) => name.endsWith("ErrorCode") && !protocol.has(name),
    );
    expect(tables).toEqual(
      expect.arrayContaining(["SamplingErrorCode", "StorageErrorCode", "UploadErrorCode"]),
    );
    for (const name of tables) expect(exported.get(name), name).toBe(coreExports.get(name));
    expect(exported.get("reportProgress")).toBe(core.reportProgress);
  });

  it("keep exporting what a tool is handed and the display helpers", () => {
    for (const name of [
      "CapabilityError",
      "display",
      "markdown",
      "withDisplay",
      "ToolError",
      "currentContext",
    ])
      expect(exported.get(name)).toBeTypeOf("function");
  });
});
