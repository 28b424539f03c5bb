import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { StorageErrorCode } from "@executa/core";
import { type PluginProcess, type ReverseCall, type ReverseProvider, spawnPlugin } from "@executa/host";
import { createLocalProviders, type LocalProviders } from "@executa/host/local";
import { expectSuccess, expectToolError, type PluginTestClient, runBinary } from "@executa/testing";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

// The built single executable over real pipes (`pnpm --filter @executa-apps/storage build`),
// against the local providers of @executa/host.
const binary = fileURLToPath(new URL("../dist/storage", import.meta.url));

beforeAll(() => {
  if (!existsSync(binary)) {
    throw new Error(`${binary} is missing: run \`pnpm --filter @executa-apps/storage build\` first`);
  }
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(options: Parameters<typeof runBinary>[2] = {}): Promise<PluginTestClient> {
  const plugin = await runBinary(binary, [], options);
  cleanups.push(() => plugin.close());
  return plugin;
}

interface NotesPage {
  notes: { id: number; text: string }[];
  next_cursor: string | null;
}

async function allNotes(invoke: PluginTestClient["invoke"]): Promise<{ id: number; text: string }[]> {
  const notes: { id: number; text: string }[] = [];
  let cursor: string | null = null;
  do {
    const page: NotesPage = expectSuccess(
      await invoke<NotesPage>("notes_list", cursor ? { limit: 7, cursor } : { limit: 7 }),
    );
    notes.push(...page.notes);
    cursor = page.next_cursor;
  } while (cursor);
  return notes;
}

describe("concurrent appends", () => {
  it("keeps all 50 notes of 50 concurrent note_append invokes, retrying the conflicts", async () => {
    const plugin = await start();
    const texts = Array.from({ length: 50 }, (_, i) => `note ${i + 1}`);
    const results = await Promise.all(
      texts.map((text, i) =>
        plugin.invoke<{ id: number; attempts: number }>("note_append", {
          text,
          tags: [i % 2 ? "odd" : "even"],
        }),
      ),
    );
    const appended = results.map((result) => expectSuccess(result));
    expect(appended.map((note) => note.id).sort((a, b) => a - b)).toEqual(texts.map((_, i) => i + 1));

    const stored = await allNotes(plugin.invoke);
    expect(stored).toHaveLength(50);
    expect(new Set(stored.map((note) => note.text))).toEqual(new Set(texts));
    expect(stored.map((note) => note.id)).toEqual(texts.map((_, i) => i + 1));
    const even = expectSuccess(await plugin.invoke<NotesPage>("notes_list", { tag: "even", limit: 100 }));
    expect(even.notes).toHaveLength(25);

    // They really raced: the host refused stale writes, and the plugin retried them.
    const conflicts = plugin.reverseCalls.filter(
      (call) => call.error?.code === StorageErrorCode.PRECONDITION_FAILED,
    );
    expect(conflicts.length).toBeGreaterThan(0);
    expect(appended.some((note) => note.attempts > 1)).toBe(true);
  });
});

/**
 * Storage that lets "another device" allocate an id just before the plugin's first
 * guarded write of the counter, so that write meets a precondition failure.
 */
class InterferingStorage implements ReverseProvider {
  interfered = 0;
  constructor(private readonly inner: ReverseProvider) {}

  async handle(call: ReverseCall): Promise<unknown> {
    const params = call.params;
    if (
      call.method === "storage/set" &&
      params.key === "notebook/seq" &&
      params.if_match &&
      this.interfered === 0
    ) {
      this.interfered++;
      const current = (await this.inner.handle({
        method: "storage/get",
        params: { key: "notebook/seq", scope: params.scope },
        context: call.context,
      })) as { value: { next: number } };
      await this.inner.handle({
        method: "storage/set",
        params: { key: "notebook/seq", scope: params.scope, value: { next: current.value.next + 1 } },
        context: call.context,
      });
    }
    return this.inner.handle(call);
  }
}

describe("precondition failures", () => {
  it("are retried: the append re-reads the counter and takes the next id", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "notebook-test-"));
    const local: LocalProviders = createLocalProviders({ dataDir, sampling: { mode: "echo" } });
    const storage = new InterferingStorage(local.providers.storage!);
    const plugin: PluginProcess = await spawnPlugin({
      command: binary,
      providers: { ...local.providers, storage },
    });
    cleanups.push(async () => {
      await plugin.stop();
      await local.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const seen: { method: string; code?: number }[] = [];
    plugin.on("reverseCall", (event) => seen.push({ method: event.method, code: event.error?.code }));
    await plugin.start();

    const result = expectSuccess(
      await plugin.invoke<{ id: number; attempts: number }>("note_append", { text: "hi" }),
    );
    expect(storage.interfered).toBe(1);
    // The other writer took id 1; the retry read its counter and got 2.
    expect(result).toMatchObject({ id: 2, attempts: 2 });
    expect(seen.filter((call) => call.code === StorageErrorCode.PRECONDITION_FAILED)).toHaveLength(1);
    const counter = local.store.get("user:local-user", "kv", "notebook/seq");
    expect(JSON.parse(counter!.valueJson!)).toEqual({ next: 3 });
  });
});

describe("hosts without storage", () => {
  const quickly = async <T>(promise: Promise<T>): Promise<T> => {
    const started = Date.now();
    const value = await promise;
    expect(Date.now() - started).toBeLessThan(5_000);
    return value;
  };

  it("a host that does not grant storage gets a clear tool error", async () => {
    const plugin = await start({ grantedCapabilities: [] });
    const error = expectToolError(await quickly(plugin.invoke("note_append", { text: "x" })));
    expect(error).toMatch(/^note_append: the host did not grant storage access/);
    expect(error).toContain("aps.kv");
    expectToolError(await quickly(plugin.invoke("attachment_link", { path: "a.txt" })), /did not grant/);
  });

  it("a v1 host (initialize offering 1.1) gets a clear tool error, with nothing written to the host", async () => {
    const plugin = await start({ protocolVersion: "1.1" });
    expect(plugin.negotiated?.protocolVersion).toBe("1.1");
    const error = expectToolError(await quickly(plugin.invoke("notes_list", {})));
    expect(error).toContain("did not negotiate Executa protocol 2.0");
    expect(plugin.reverseCalls).toHaveLength(0);
  });

  it("a v1 host that never sends initialize gets the same answer", async () => {
    const plugin = await start({ handshake: false });
    await plugin.describe();
    expectToolError(await quickly(plugin.invoke("note_append", { text: "x" })), /did not negotiate/);
  });

  it("a host with no storage provider gets a clear tool error", async () => {
    const plugin = await start({ localProviders: false });
    expectToolError(await quickly(plugin.invoke("note_delete", { id: 1 })), /does not implement storage/);
  });
});

describe("the binary end to end", () => {
  it("uploads an attachment over HTTP PUT and links to it", async () => {
    const plugin = await start();
    expectSuccess(
      await plugin.invoke("attachment_upload", {
        path: "hello.txt",
        text: "hello, file",
        content_type: "text/plain",
      }),
    );
    const link = expectSuccess(
      await plugin.invoke<{ url: string }>("attachment_link", { path: "hello.txt" }),
    );
    expect(await (await fetch(link.url)).text()).toBe("hello, file");
    expect(plugin.reverseCalls.map((call) => call.method)).toEqual([
      "files/upload_begin",
      "files/upload_complete",
      "files/download_url",
    ]);
  });

  it("takes its scope from NOTEBOOK_SCOPE", async () => {
    const plugin = await start({ env: { NOTEBOOK_SCOPE: "tool" } });
    expectSuccess(await plugin.invoke("note_append", { text: "mine" }));
    expect(
      plugin.local!.store.get("tool:local-user:storage", "kv", "notebook/notes/0000000001"),
    ).toBeDefined();
  });

  it("refuses to start with an unknown NOTEBOOK_SCOPE, saying why", async () => {
    await expect(runBinary(binary, [], { env: { NOTEBOOK_SCOPE: "everyone" } })).rejects.toThrow(
      /NOTEBOOK_SCOPE="everyone": use one of user, tool, app/,
    );
  });
});
