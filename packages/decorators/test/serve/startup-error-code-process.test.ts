import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { bundleWithTsup } from "../helpers/build-fixture.js";
import { bundledFixtures } from "../helpers/bundled-fixture.js";
import { spawnPlugin } from "../helpers/spawn-plugin.js";

const entry = fileURLToPath(new URL("../fixtures/broken-main.ts", import.meta.url));
const twice = fileURLToPath(new URL("../fixtures/served-twice-main.ts", import.meta.url));
const [bundle, twiceBundle] = bundledFixtures(
  () => bundleWithTsup(entry),
  () => bundleWithTsup(twice),
);

test("serve() of a class that cannot be a plugin prints [CODE] on stderr, exits 1 and writes nothing on stdout", async () => {
  const plugin = spawnPlugin(bundle.file);
  plugin.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "describe" })}\n`);
  expect(await plugin.exited).toBe(1);
  expect(plugin.stdoutLines).toEqual([]);
  expect(plugin.stderr()).toMatch(
    /^executa: the plugin cannot start \[UNINFERABLE_TYPE\]: Broken\.lookUp, parameter #0 "id": cannot infer the type: reflection says Object/,
  );
});

test("a second serve() in one process prints [SERVED_TWICE] with the fix, exits 1 and answers nothing", async () => {
  const plugin = spawnPlugin(twiceBundle.file);
  plugin.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "describe" })}\n`);
  expect(await plugin.exited).toBe(1);
  expect(plugin.stdoutLines).toEqual([]);
  expect(plugin.stderr()).toMatch(
    /^executa: the plugin cannot start \[SERVED_TWICE\]: Second: serve\(\) was called a second time in this process, while First \(plugin "first"\) is already served/,
  );
  expect(plugin.stderr()).toMatch(/\n {2}Fix: call serve\(\) once per process/);
});
