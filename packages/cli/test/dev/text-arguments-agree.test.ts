/**
 * One table of typed texts, run through both readers of text arguments: `executa dev`'s
 * `key=value` parser and the decorators' binding (a string an LLM sends in place of the
 * parameter's type). Both read text with core's parameter-type modules, so they must
 * accept the same texts as the same values and refuse the same texts.
 */

import { createLogger, type PluginDefinition } from "@executa/core";
import { createInvokeContext } from "@executa/core/internal";
import { buildPlugin, InvalidParamsError, Param, Plugin, Tool } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import { parseInvokeArgs } from "../../src/dev/invoke-args.js";

@Plugin({ name: "echo-types", version: "1.0.0", description: "Echoes each argument as bound." })
class EchoTypes {
  @Tool({ description: "A string." }) string(@Param("v", { type: "string" }) v: unknown) {
    return { v };
  }
  @Tool({ description: "An integer." }) integer(@Param("v", { type: "integer" }) v: unknown) {
    return { v };
  }
  @Tool({ description: "A number." }) number(@Param("v", { type: "number" }) v: unknown) {
    return { v };
  }
  @Tool({ description: "A boolean." }) boolean(@Param("v", { type: "boolean" }) v: unknown) {
    return { v };
  }
  @Tool({ description: "An object." }) object(@Param("v", { type: "object" }) v: unknown) {
    return { v };
  }
  @Tool({ description: "A list of strings." }) strings(
    @Param("v", { type: "array", items: "string" }) v: unknown,
  ) {
    return { v };
  }
  @Tool({ description: "A list of integers." }) integers(
    @Param("v", { type: "array", items: "integer" }) v: unknown,
  ) {
    return { v };
  }
}

const REFUSED = Symbol("refused");

/** [tool (its parameter type), typed text, the value both read, or REFUSED]. */
const TABLE: [string, string, unknown][] = [
  ["string", " 1", " 1"],
  ["string", "", ""],
  ["integer", "42", 42],
  ["integer", " 1", 1],
  ["integer", "-3", -3],
  ["integer", "+7", 7],
  ["integer", "1e3", REFUSED],
  ["integer", "1.5", REFUSED],
  ["integer", "", REFUSED],
  ["integer", "0x10", REFUSED],
  ["integer", "9007199254740993", REFUSED],
  ["number", "2.5", 2.5],
  ["number", "1e3", 1000],
  ["number", " .5 ", 0.5],
  ["number", "NaN", REFUSED],
  ["number", "Infinity", REFUSED],
  ["number", "1e400", REFUSED],
  ["number", "0x10", REFUSED],
  ["boolean", "true", true],
  ["boolean", "TRUE", true],
  ["boolean", " False ", false],
  ["boolean", "yes", REFUSED],
  ["boolean", "on", REFUSED],
  ["boolean", "1", REFUSED],
  ["object", '{"a": [1]}', { a: [1] }],
  ["object", "[1]", REFUSED],
  ["object", "{oops", REFUSED],
  ["strings", '["a", "b"]', ["a", "b"]],
  ["strings", "a, b", ["a, b"]],
  ["strings", "", []],
  ["strings", "[1", REFUSED],
  ["integers", "5", [5]],
  ["integers", "[1, 2]", [1, 2]],
  ["integers", "1,2", REFUSED],
];

const definition = buildPlugin(EchoTypes);

function byCli(tool: string, text: string): unknown {
  const manifest = definition.manifest.tools.find((t) => t.name === tool)!;
  try {
    return parseInvokeArgs([`v=${text}`], manifest).v;
  } catch {
    return REFUSED;
  }
}

async function byBinding(tool: string, text: string): Promise<unknown> {
  try {
    const result = (await definition.handlers[tool]!({ v: text }, context(definition, tool))) as {
      v: unknown;
    };
    return result.v;
  } catch (error) {
    if (error instanceof InvalidParamsError) return REFUSED;
    throw error;
  }
}

function context(plugin: PluginDefinition, tool: string) {
  return createInvokeContext({
    tool,
    invokeId: "agree",
    deadlineMs: Date.now() + 60_000,
    signal: new AbortController().signal,
    wire: { invoke_id: "agree", credentials: {} },
    declaredCredentials: plugin.manifest.credentials ?? [],
    log: createLogger(tool, { write: () => {} }),
    channel: {
      request: async () => {
        throw new Error("no host in this test");
      },
      protocolVersion: () => "1.1",
      hostCapabilities: [],
    },
  });
}

describe("executa dev's key=value parser and the decorators' binding read text alike", () => {
  test.each(TABLE)("%s from %j", async (tool, text, expected) => {
    expect(byCli(tool, text)).toEqual(expected);
    expect(await byBinding(tool, text)).toEqual(expected);
  });
});
