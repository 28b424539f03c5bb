import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requirePrerequisite, skipWithout } from "../../../../tooling/test-support/src/prerequisite.js";
import { createLocalProviders, type LocalProviders } from "../../src/local/create-local-providers.js";
import type { PluginProcess } from "../../src/process/plugin-process.js";
import { tempDir } from "../helpers/calls.js";
import { spawnFixture, stopAll } from "../helpers/fixtures.js";

// The fixture imports @executa/core's built output; `pnpm test` builds it first.
const coreBuilt = existsSync(fileURLToPath(new URL("../../../core/dist/index.js", import.meta.url)));

describe.skipIf(skipWithout(coreBuilt))("a plugin built on @executa/core", () => {
  let dir: ReturnType<typeof tempDir>;
  let local: LocalProviders;
  let plugin: PluginProcess;

  beforeAll(async () => {
    requirePrerequisite(coreBuilt, "packages/core/dist is missing: run `pnpm --filter @executa/core build`");
    dir = tempDir();
    local = createLocalProviders({
      dataDir: dir.path,
      sampling: { mode: "script", rules: [{ match: "ping", reply: "pong" }] },
    });
    plugin = await spawnFixture("core-interop-plugin.mjs", { providers: local.providers });
    await plugin.start();
  });
  afterAll(async () => {
    await stopAll();
    await local?.close();
    dir?.remove();
  });

  it("negotiates 2.0 and announces its client capabilities", () => {
    expect(plugin.negotiated?.protocolVersion).toBe("2.0");
    expect(plugin.negotiated?.result?.client_capabilities).toMatchObject({
      sampling: {},
      storage: { kv: true },
    });
  });

  it("round-trips storage", async () => {
    const result = await plugin.invoke<{
      set: { generation: number };
      got: { value: unknown };
      keys: string[];
    }>("kv");
    expect(result.success, result.error).toBe(true);
    expect(result.data).toMatchObject({
      set: { generation: 1 },
      got: { value: { n: 1 } },
      keys: ["counter"],
    });
  });

  it("uploads and downloads a file through the presigned URLs", async () => {
    const result = await plugin.invoke("files");
    expect(result).toMatchObject({ success: true, data: { size: 15, body: "hello from core" } });
  });

  it("uploads inline and through negotiate + PUT + confirm", async () => {
    const result = await plugin.invoke("upload");
    expect(result).toMatchObject({
      success: true,
      data: { small: 4, large: 2 * 1024 * 1024, fetched: 2 * 1024 * 1024, byte: 7 },
    });
  });

  it("samples", async () => {
    expect(await plugin.invoke("sample")).toMatchObject({
      success: true,
      data: { text: "pong", model: "script" },
    });
  });
});
