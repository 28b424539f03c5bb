import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type FixtureProcess, invoke, spawnFixture } from "../helpers/spawn-fixture.js";

// Core's built dist copied where no node_modules is above it: the OpenTelemetry packages,
// optional peers, cannot be found, as for a plugin whose author did not install them.
const CORE_DIST = fileURLToPath(new URL("../../dist", import.meta.url));

const PLUGIN = `import { servePlugin } from "./core/index.js";
servePlugin({
  manifest: {
    name: "untraced-fixture",
    version: "1.0.0",
    description: "A plugin without the OpenTelemetry SDK installed.",
    tools: [{ name: "greet", description: "Greet.", parameters: [{ name: "name", type: "string" }] }],
  },
  handlers: { greet: (args) => ({ greeting: "hello " + args.name }) },
});
`;

let dir: string | undefined;
let plugin: FixtureProcess | undefined;

afterEach(async () => {
  plugin?.child.kill("SIGKILL");
  plugin = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("OTEL_* set without the OpenTelemetry packages installed", () => {
  it("logs which packages to install and keeps serving, untraced", async () => {
    dir = await mkdtemp(join(tmpdir(), "executa-no-otel-"));
    await cp(CORE_DIST, join(dir, "core"), { recursive: true });
    await writeFile(join(dir, "plugin.mjs"), PLUGIN);
    plugin = spawnFixture(
      { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
      join(dir, "plugin.mjs"),
    );
    const greeted = await plugin.call("invoke", invoke("greet", { name: "Ada" }));
    expect(greeted.result).toMatchObject({ success: true, data: { greeting: "hello Ada" } });
    expect(plugin.stderr()).toMatch(/OpenTelemetry is configured .* could not start/);
    expect(plugin.stderr()).toContain("Install @opentelemetry/api and @opentelemetry/sdk-node");
    plugin.child.stdin.end();
    expect((await plugin.exited).code).toBe(0);
  });
});
