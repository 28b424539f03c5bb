import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentErrorCode, EmbeddingsErrorCode, ImageErrorCode } from "@executa/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalProviders, type LocalProviders } from "../../src/local/create-local-providers.js";
import { type PluginProcess, spawnPlugin } from "../../src/process/plugin-process.js";
import { tempDir } from "../helpers/calls.js";

const PLUGIN = fileURLToPath(new URL("./capabilities-plugin.mjs", import.meta.url));

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected freely
type Answer = { result?: Record<string, any>; error?: { code: number; message: string; data?: unknown } };

describe("image, embeddings and agent over a real plugin process", () => {
  let dir: ReturnType<typeof tempDir>;
  let local: LocalProviders | undefined;
  let plugin: PluginProcess | undefined;

  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    if (plugin?.running) await plugin.stop({ graceMs: 500 });
    await local?.close();
    dir.remove();
  });

  async function start(options: Partial<Parameters<typeof createLocalProviders>[0]> = {}) {
    local = createLocalProviders({ dataDir: dir.path, sampling: { mode: "echo" }, ...options });
    plugin = await spawnPlugin({ command: process.execPath, args: [PLUGIN], providers: local.providers });
    return plugin.start();
  }
  async function calls(
    ...list: Array<{ method: string; params?: Record<string, unknown> }>
  ): Promise<Answer[]> {
    const result = await plugin!.invoke("calls", { calls: list });
    expect(result.success).toBe(true);
    return (result.data as { answers: Answer[] }).answers;
  }

  it("offers the three families in initialize and answers them", async () => {
    const { negotiated } = await start({ imageLimits: { maxImagesPerRequest: 2 } });
    const offered = (negotiated.result as { offered?: Record<string, unknown> }).offered;
    expect(offered).toMatchObject({ image: {}, embeddings: {}, agent: {} });

    const [image, tooMany, embedded, badEmbed] = await calls(
      { method: "image/generate", params: { prompt: "Mars", size: "8x8" } },
      { method: "image/generate", params: { prompt: "Mars", n: 3 } },
      { method: "embeddings/create", params: { input: ["one text", "another"], dimensions: 64 } },
      { method: "embeddings/create", params: { input: "" } },
    );
    expect(image!.result).toMatchObject({
      model: "local-stripes-v1",
      images: [{ mimeType: "image/png", width: 8 }],
    });
    const png = await fetch(image!.result!.images[0].url);
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString("latin1"),
    ).toBe("PNG");
    expect(tooMany!.error?.code).toBe(ImageErrorCode.MAX_IMAGES);
    expect(embedded!.result!.data.map((d: { embedding: number[] }) => d.embedding.length)).toEqual([64, 64]);
    expect(badEmbed!.error?.code).toBe(EmbeddingsErrorCode.INVALID_REQUEST);
  });

  it("runs an agent session's whole life cycle", async () => {
    await start();
    const answers = await calls(
      { method: "agent/session.create", params: { label: "life" } },
      { method: "agent/session.run", params: { app_session_uuid: "$uuid", content: "plan my day" } },
      { method: "agent/session.history", params: { app_session_uuid: "$uuid" } },
      { method: "agent/session.refresh", params: { app_session_uuid: "$uuid", ttl_seconds: 900 } },
      { method: "agent/session.list" },
      { method: "agent/session.cancel", params: { app_session_uuid: "$uuid", run_id: "none" } },
      { method: "agent/session.delete", params: { app_session_uuid: "$uuid" } },
      { method: "agent/session.run", params: { app_session_uuid: "$uuid", content: "again" } },
    );
    const [created, run, history, refreshed, listed, cancelled, deleted, gone] = answers;
    const uuid = created!.result!.app_session_uuid;
    const events = run!.result!.frames.map((f: { event: string }) => f.event);
    expect(events).toEqual(["run_meta", "token", "token", "token", "complete"]);
    expect(run!.result!.frames[0].warnings[0].code).toBe("NO_TOOLS_AVAILABLE");
    expect(history!.result!.messages).toEqual([
      { role: "user", content: "plan my day" },
      { role: "assistant", content: "plan my day" },
    ]);
    expect(refreshed!.result).toMatchObject({ app_session_uuid: uuid, idle_ttl_seconds: 900 });
    expect(listed!.result!.sessions).toEqual([
      expect.objectContaining({ app_session_uuid: uuid, label: "life" }),
    ]);
    expect(cancelled!.result).toEqual({ cancelled: false, run_id: "none" });
    expect(deleted!.result).toEqual({ deleted: true, app_session_uuid: uuid });
    expect(gone!.error?.code).toBe(AgentErrorCode.SESSION_NOT_FOUND);
  });

  it("answers from a fixture file first", async () => {
    const file = join(dir.path, "fixtures.jsonl");
    writeFileSync(
      file,
      [
        '{"ns":"agent","method":"session.run","events":[{"payload":{"event":"run_meta","run_id":"mock-run"}},{"payload":{"event":"token","text":"156"}},{"payload":{"event":"complete"}}]}',
        '{"ns":"image","method":"generate","match":{"promptIncludes":"Mars"},"error":{"code":-32102,"message":"out of images"}}',
      ].join("\n"),
    );
    await start({ fixtures: file });
    const [created, run, mars, venus] = await calls(
      { method: "agent/session.create" },
      { method: "agent/session.run", params: { app_session_uuid: "$uuid", content: "12 × 13?" } },
      { method: "image/generate", params: { prompt: "Mars" } },
      { method: "image/generate", params: { prompt: "Venus", size: "4x4" } },
    );
    expect(created!.result!.app_session_uuid).toMatch(/^aps_/);
    expect(run!.result).toMatchObject({ run_id: "mock-run", final: { text: "156" } });
    expect(mars!.error).toMatchObject({ code: ImageErrorCode.QUOTA_EXCEEDED, message: "out of images" });
    expect(venus!.result!.images[0].width).toBe(4);
  });
});
