import { DefinitionError, manifestOf, Param, Plugin, Tool } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import { buildManifest } from "../../src/manifest/build-manifest.js";
import type { PluginModel } from "../../src/model/types.js";

function thrown(run: () => unknown): DefinitionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error("expected a DefinitionError");
}

describe("the decorators follow core's manifest rules", () => {
  test("a plugin name starting with a digit is refused, as executa check refuses it", () => {
    @Plugin({ name: "2fa-helper", version: "1.0.0", description: "Codes." })
    class TwoFactor {
      @Tool({ description: "A code." }) code(@Param("user") user: string) {
        return user;
      }
    }
    const error = thrown(() => manifestOf(TwoFactor));
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.message).toContain('name "2fa-helper" is not a lowercase kebab/snake label');
  });

  test("a built manifest that breaks the spec is refused before any host sees it", () => {
    // A model the decorators' own checks would not produce: the net behind them.
    const model: PluginModel = {
      className: "Gap",
      target: class Gap {},
      info: { name: "gap", version: "1.0.0", description: "Gap." },
      tools: [
        {
          methodName: "run",
          name: "run",
          description: "Runs.",
          timeout: 1.5,
          input: { type: "object", properties: { x: { type: "string", enum: [] } }, required: ["x"] },
          slots: [],
        },
      ],
    };
    const error = thrown(() => buildManifest(model));
    expect(error.code).toBe("MANIFEST_INVALID");
    expect(error.className).toBe("Gap");
    expect(error.problem).toBe(
      "the manifest breaks the protocol spec at tools[0].timeout: must be a positive integer (seconds), got 1.5 (+1 more)",
    );
  });

  test("warnings do not stop a build", () => {
    const model: PluginModel = {
      className: "Quiet",
      target: class Quiet {},
      info: { name: "quiet", version: "1.0.0", description: "Quiet." },
      tools: [
        {
          methodName: "run",
          name: "run",
          description: "Runs.",
          input: { type: "object", properties: { x: { type: "string" } }, required: ["x"] },
          slots: [],
        },
      ],
    };
    expect(buildManifest(model).tools[0]!.parameters).toEqual([
      { name: "x", type: "string", required: true },
    ]);
  });
});
