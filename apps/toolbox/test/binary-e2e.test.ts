import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { expectSuccess, type PluginTestClient, runBinary } from "@executa/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The built single executable, over real pipes (`pnpm --filter @executa-apps/toolbox build`).
const binary = fileURLToPath(new URL("../dist/toolbox", import.meta.url));

let plugin: PluginTestClient;
beforeAll(async () => {
  if (!existsSync(binary)) {
    throw new Error(`${binary} is missing: run \`pnpm --filter @executa-apps/toolbox build\` first`);
  }
  plugin = await runBinary(binary, [], { localProviders: false });
});
afterAll(() => plugin?.close());

describe("the built toolbox binary", () => {
  it("describes itself and answers health", async () => {
    expect(plugin.negotiated?.protocolVersion).toBe("2.0");
    expect(plugin.manifest?.name).toBe("toolbox");
    expect(plugin.manifest?.tools).toHaveLength(6);
    expect((await plugin.health()).status).toBe("ready");
  });

  it("runs the tools", async () => {
    expect(expectSuccess(await plugin.invoke("base64_encode", { text: "hello" }))).toEqual({
      encoded: "aGVsbG8=",
      original_length: 5,
    });
    // The hash tools load node:crypto on first use (a lowered dynamic import in the binary).
    expect(expectSuccess(await plugin.invoke("hash_text", { text: "a", algorithm: "md5" }))).toMatchObject({
      hash: "0cc175b9c0f1b6a831c399e269772661",
    });
    expect(
      expectSuccess(
        await plugin.invoke<{ count: number }>("batch_hash", { texts: ["a", "b"], algorithm: "sha1" }),
      ),
    ).toMatchObject({ count: 2 });
    const data = expectSuccess(await plugin.invoke<{ dataset: unknown[] }>("generate_dataset", { rows: 1 }));
    expect(data.dataset).toEqual([
      { id: 1, name: "Diana Smith", email: "grace.williams@example.com", score: 37.57 },
    ]);
  });

  it("returns a 100 000-row dataset whole (it travels by file transport)", async () => {
    const data = expectSuccess(
      await plugin.invoke<{ rows: number; file_transport: boolean; dataset: { id: number }[] }>(
        "generate_dataset",
        { rows: 100_000, columns: ["id", "name", "email", "score", "timestamp", "description"] },
      ),
    );
    expect(data.rows).toBe(100_000);
    expect(data.file_transport).toBe(true);
    expect(data.dataset).toHaveLength(100_000);
    expect(data.dataset.at(-1)?.id).toBe(100_000);
  });
});

describe("file transport on the wire", () => {
  it("sends a large answer as a __file_transport pointer to a file holding the full response", async () => {
    const child = spawn(binary, [], { stdio: ["pipe", "pipe", "ignore"] });
    const lines = createInterface({ input: child.stdout });
    const first = new Promise<string>((resolve) => lines.once("line", resolve));
    const request = {
      jsonrpc: "2.0",
      id: 7,
      method: "invoke",
      params: { tool: "generate_dataset", arguments: { rows: 20_000 }, context: { invoke_id: "ft-1" } },
    };
    child.stdin.write(`${JSON.stringify(request)}\n`);
    const pointer = JSON.parse(await first) as { id: number; __file_transport?: string };
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));

    expect(pointer.id).toBe(7);
    expect(typeof pointer.__file_transport).toBe("string");
    const response = JSON.parse(readFileSync(pointer.__file_transport!, "utf8"));
    rmSync(pointer.__file_transport!); // the host's job, as the spec says
    expect(response.id).toBe(7);
    expect(response.result.success).toBe(true);
    expect(response.result.data.dataset).toHaveLength(20_000);
  });
});
