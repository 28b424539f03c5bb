import { describe, expect, it } from "vitest";
import { crashSummary } from "../../src/dev/crash-summary.js";

describe("crashSummary", () => {
  it("keeps the error line and the first frame outside node:, node_modules and the source hooks", () => {
    const stderr = [
      "node:internal/modules/run_main:123",
      "    triggerUncaughtException(",
      "    ^",
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'class-transformer' imported from /p/src/dto.ts",
      "    at packageResolve (node:internal/modules/esm/resolve:873:9)",
      "    at resolve (file:///p/node_modules/@executa/bundler/dist/register-hooks.js:32:18)",
      "    at load (file:///p/node_modules/some-lib/index.js:1:1)",
      "    at Object.<anonymous> (file:///p/src/dto.ts:3:1)",
      "  code: 'ERR_MODULE_NOT_FOUND'",
      "",
      "Node.js v20.20.2",
    ];
    expect(crashSummary(stderr)).toEqual([
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'class-transformer' imported from /p/src/dto.ts",
      "  at Object.<anonymous> (file:///p/src/dto.ts:3:1)",
    ]);
  });

  it("keeps an `executa: …` line alone when no author frame follows", () => {
    expect(crashSummary(["starting", "executa: the plugin cannot start [NOT_A_PLUGIN]: no @Plugin"])).toEqual(
      ["executa: the plugin cannot start [NOT_A_PLUGIN]: no @Plugin"],
    );
  });

  it("without an error line, keeps the last meaningful lines", () => {
    expect(crashSummary(["a", "b", "c", "d", "", "Node.js v20.20.2"])).toEqual(["b", "c", "d"]);
    expect(crashSummary([])).toEqual([]);
  });

  it("keeps a definition error's Fix: line under its error line", () => {
    const stderr = [
      "executa: the plugin cannot start [NO_TOOLS]: NoTools: the plugin has no tools",
      '  Fix: mark at least one method with @Tool({ description: "…" })',
    ];
    expect(crashSummary(stderr)).toEqual([
      "executa: the plugin cannot start [NO_TOOLS]: NoTools: the plugin has no tools",
      '  Fix: mark at least one method with @Tool({ description: "…" })',
    ]);
  });
});
