import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { bundleWithEsbuild } from "../helpers/build-fixture.js";
import { bundledFixture } from "../helpers/bundled-fixture.js";
import { spawnPlugin } from "../helpers/spawn-plugin.js";

const entry = fileURLToPath(new URL("../fixtures/e2e-main.ts", import.meta.url));
const bundle = bundledFixture(() => bundleWithEsbuild(entry));

test("a plugin compiled by plain esbuild (no decorator metadata) exits 1 with the documented message, answering nothing", async () => {
  const plugin = spawnPlugin(bundle.file);
  plugin.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "describe" })}\n`);
  const code = await plugin.exited;
  expect(code).toBe(1);
  expect(plugin.stdoutLines).toEqual([]);
  const stderr = plugin.stderr();
  expect(stderr).toContain(
    "executa: the plugin cannot start [METADATA_MISSING]: E2ePlugin.greet: decorator metadata (design:paramtypes) is missing, so parameter types cannot be read",
  );
  expect(stderr).toContain("Fix: compile with decorator metadata: TypeScript (tsc) or SWC");
  expect(stderr).toContain("emitDecoratorMetadata");
  expect(stderr).toContain("plain esbuild drops the metadata");
});
