// The exact reverse-call frames every ctx.host.* method writes: the fixture plugin is
// served on the in-memory transport pair and this test is its host.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeHost, startHost } from "./helpers/fake-host.js";

/** An explicit per-call timeout, so `_clientTimeoutS` is exact (4.321 s). */
const timeoutMs = 4321;

interface Case {
  path: string;
  args: unknown[];
  method: string;
  params: Record<string, unknown>;
  answer: unknown;
  /** What the method resolves with; the answer itself when omitted. */
  resolves?: unknown;
}

const cases: Case[] = [
  {
    path: "sampling.createMessage",
    args: [
      {
        messages: [
          { role: "system", content: { type: "text", text: "be brief" } },
          { role: "user", content: "hi" },
        ],
        maxTokens: 50,
        systemPrompt: "sys",
        temperature: 0.2,
        stopSequences: ["END"],
        modelPreferences: { hints: [{ name: "small" }], costPriority: 0.5, speedPriority: 0.7 },
        metadata: { purpose: "test" },
        responseFormat: {
          type: "json_schema",
          json_schema: { name: "out", strict: true, schema: { type: "object" } },
        },
        onUnsupported: "json_object",
        timeoutMs,
      },
    ],
    method: "sampling/createMessage",
    params: {
      messages: [
        { role: "system", content: { type: "text", text: "be brief" } },
        { role: "user", content: { type: "text", text: "hi" } },
      ],
      maxTokens: 50,
      includeContext: "none",
      systemPrompt: "sys",
      temperature: 0.2,
      stopSequences: ["END"],
      modelPreferences: { hints: [{ name: "small" }], costPriority: 0.5, speedPriority: 0.7 },
      metadata: { purpose: "test" },
      responseFormat: {
        type: "json_schema",
        json_schema: { name: "out", strict: true, schema: { type: "object" } },
      },
      onUnsupported: "json_object",
    },
    answer: {
      role: "assistant",
      content: { type: "text", text: "hello" },
      model: "m-1",
      stopReason: "endTurn",
      usage: { inputTokens: 3, outputTokens: 1 },
    },
    resolves: {
      role: "assistant",
      content: { type: "text", text: "hello" },
      model: "m-1",
      stopReason: "endTurn",
      usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
    },
  },
  {
    path: "storage.get",
    args: ["prefs", { scope: "user", timeoutMs }],
    method: "storage/get",
    params: { key: "prefs", scope: "user" },
    answer: { value: { theme: "dark" }, etag: "e1", exists: true },
  },
  {
    path: "storage.get",
    args: ["missing", { timeoutMs }],
    method: "storage/get",
    params: { key: "missing", scope: "tool" },
    answer: { exists: false },
    resolves: { value: null, exists: false },
  },
  {
    path: "storage.set",
    args: ["prefs", { theme: "light" }, { scope: "app", ifMatch: "e1", ttlSeconds: 60, timeoutMs }],
    method: "storage/set",
    params: { key: "prefs", value: { theme: "light" }, scope: "app", if_match: "e1", ttl_seconds: 60 },
    answer: { etag: "e2", generation: 2, size_bytes: 17 },
  },
  {
    path: "storage.delete",
    args: ["prefs", { ifMatch: "e2", timeoutMs }],
    method: "storage/delete",
    params: { key: "prefs", scope: "tool", if_match: "e2" },
    answer: {},
  },
  {
    path: "storage.list",
    args: [{ prefix: "notes/", cursor: "c1", limit: 10, kind: "kv", timeoutMs }],
    method: "storage/list",
    params: { scope: "tool", prefix: "notes/", cursor: "c1", limit: 10, kind: "kv" },
    answer: { items: [{ key: "notes/a" }], next_cursor: "c2" },
  },
  {
    path: "files.uploadBegin",
    args: [
      "docs/a.txt",
      { scope: "user", sizeBytes: 3, contentType: "text/plain", metadata: { tag: "x" }, timeoutMs },
    ],
    method: "files/upload_begin",
    params: {
      path: "docs/a.txt",
      scope: "user",
      size_bytes: 3,
      content_type: "text/plain",
      metadata: { tag: "x" },
    },
    answer: {
      upload_id: "u1",
      put_url: "https://store.test/put",
      headers: { "x-sig": "1" },
      expires_at: "t",
    },
  },
  {
    path: "files.uploadComplete",
    args: ["docs/a.txt", { etag: '"abc"', sizeBytes: 3, contentType: "text/plain", timeoutMs }],
    method: "files/upload_complete",
    params: { path: "docs/a.txt", scope: "tool", etag: '"abc"', size_bytes: 3, content_type: "text/plain" },
    answer: { path: "docs/a.txt", size_bytes: 3, etag: '"abc"' },
  },
  {
    path: "files.downloadUrl",
    args: ["docs/a.txt", { expiresIn: 600, timeoutMs }],
    method: "files/download_url",
    params: { path: "docs/a.txt", scope: "tool", expires_in: 600, ttl_seconds: 600 },
    answer: { get_url: "https://store.test/get", expires_at: "t" },
    resolves: { get_url: "https://store.test/get", url: "https://store.test/get", expires_at: "t" },
  },
  {
    path: "files.list",
    args: [{ prefix: "docs/", limit: 5, timeoutMs }],
    method: "files/list",
    params: { scope: "tool", prefix: "docs/", limit: 5 },
    answer: { items: [{ path: "docs/a.txt" }], next_cursor: null },
  },
  {
    path: "files.delete",
    args: ["docs/a.txt", { scope: "user", timeoutMs }],
    method: "files/delete",
    params: { path: "docs/a.txt", scope: "user" },
    answer: {},
  },
  {
    path: "upload.inline",
    args: [
      {
        filename: "a.txt",
        mimeType: "text/plain",
        content: "hey",
        purpose: "user_artifact",
        metadata: { k: 1 },
        timeoutMs,
      },
    ],
    method: "host/uploadFile",
    params: {
      mode: "inline",
      filename: "a.txt",
      mime_type: "text/plain",
      content_b64: Buffer.from("hey").toString("base64"),
      purpose: "user_artifact",
      metadata: { k: 1 },
    },
    answer: {
      download_url: "https://cdn.test/a.txt",
      r2_key: "exec-uploads/a",
      size_bytes: 3,
      expires_at: "t",
    },
  },
  {
    path: "upload.negotiate",
    args: [{ filename: "big.bin", mimeType: "application/octet-stream", sizeBytes: 10_000_000, timeoutMs }],
    method: "host/uploadFile",
    params: {
      mode: "negotiate",
      filename: "big.bin",
      mime_type: "application/octet-stream",
      size_bytes: 10_000_000,
    },
    answer: { put_url: "https://r2.test/put", headers: { "content-type": "x" }, r2_key: "exec-uploads/b" },
  },
  {
    path: "upload.confirm",
    args: ["exec-uploads/b", { timeoutMs }],
    method: "host/uploadFile",
    params: { mode: "confirm", r2_key: "exec-uploads/b" },
    answer: { download_url: "https://cdn.test/b", r2_key: "exec-uploads/b", size_bytes: 10_000_000 },
  },
  {
    path: "image.generate",
    args: [
      {
        prompt: "a poster of Mars",
        n: 2,
        size: "1024x1024",
        referenceImageUrls: ["https://ref.test/1.png"],
        modelPreferences: { hints: [{ name: "dalle" }] },
        metadata: { campaign: "x" },
        timeoutMs,
      },
    ],
    method: "image/generate",
    params: {
      prompt: "a poster of Mars",
      n: 2,
      size: "1024x1024",
      reference_image_urls: ["https://ref.test/1.png"],
      modelPreferences: { hints: [{ name: "dalle" }] },
      metadata: { campaign: "x" },
    },
    answer: {
      images: [{ url: "https://cdn.test/m.png", mimeType: "image/png" }],
      model: "img-1",
      quota_used: 1,
    },
  },
  {
    path: "image.edit",
    args: [
      {
        imageUrl: "https://cdn.test/m.png",
        prompt: "in blue",
        maskUrl: "https://cdn.test/mask.png",
        n: 1,
        timeoutMs,
      },
    ],
    method: "image/edit",
    params: {
      image_url: "https://cdn.test/m.png",
      prompt: "in blue",
      mask_url: "https://cdn.test/mask.png",
      n: 1,
    },
    answer: { images: [{ url: "https://cdn.test/m2.png", mimeType: "image/png" }], model: "edit-1" },
  },
  {
    path: "embeddings.create",
    args: [["hello", "world"], { model: "anna-managed-v1", timeoutMs }],
    method: "embeddings/create",
    params: { input: ["hello", "world"], model: "anna-managed-v1" },
    answer: {
      object: "list",
      model: "anna-managed-v1",
      data: [
        { index: 0, embedding: [0.1, 0.2] },
        { index: 1, embedding: [0.3, 0.4] },
      ],
      usage: { prompt_tokens: 2, total_tokens: 2 },
    },
  },
  {
    path: "agent.session.create",
    args: [
      { label: "helper", systemPrompt: "You help.", ttlSeconds: 600, quotaCaps: { runs: 3 }, timeoutMs },
    ],
    method: "agent/session.create",
    params: {
      kind: "agent",
      agent_submode: "auto",
      label: "helper",
      quota_caps: { runs: 3 },
      system_prompt: "You help.",
      ttl_seconds: 600,
    },
    answer: { app_session_uuid: "aps_1", expires_in: 600, kind: "agent", granted_tools: ["*"] },
    // An older host omits inherit_host_tools: inferred from the "*" sentinel.
    resolves: {
      app_session_uuid: "aps_1",
      expires_in: 600,
      kind: "agent",
      granted_tools: ["*"],
      inherit_host_tools: true,
    },
  },
  {
    path: "agent.session.run",
    args: [
      "aps_1",
      "summarize my notes",
      {
        attachments: [{ url: "https://cdn.test/n.txt" }],
        recursionLimit: 8,
        runId: "r1",
        systemPrompt: "terse",
        timeoutMs,
      },
    ],
    method: "agent/session.run",
    params: {
      app_session_uuid: "aps_1",
      content: "summarize my notes",
      attachments: [{ url: "https://cdn.test/n.txt" }],
      recursion_limit: 8,
      run_id: "r1",
      systemPrompt: "terse",
    },
    answer: { run_id: "r1", stream_id: "s1", frames: [{ type: "token", text: "ok" }], final: { text: "ok" } },
  },
  {
    path: "agent.session.cancel",
    args: ["aps_1", "r1", { timeoutMs }],
    method: "agent/session.cancel",
    params: { app_session_uuid: "aps_1", run_id: "r1" },
    answer: { cancelled: true },
  },
  {
    path: "agent.session.history",
    args: ["aps_1", { timeoutMs }],
    method: "agent/session.history",
    params: { app_session_uuid: "aps_1" },
    answer: { messages: [] },
  },
  {
    path: "agent.session.delete",
    args: ["aps_1", { timeoutMs }],
    method: "agent/session.delete",
    params: { app_session_uuid: "aps_1" },
    answer: { deleted: true },
  },
  {
    path: "agent.session.list",
    args: [{ includeExpired: true, limit: 5, timeoutMs }],
    method: "agent/session.list",
    params: { include_expired: true, limit: 5 },
    answer: { sessions: [{ app_session_uuid: "aps_1" }] },
  },
  {
    path: "agent.session.refresh",
    args: ["aps_1", { ttlSeconds: 900, timeoutMs }],
    method: "agent/session.refresh",
    params: { app_session_uuid: "aps_1", ttl_seconds: 900 },
    answer: { app_session_uuid: "aps_1", expires_in: 900 },
  },
  {
    path: "agent.complete",
    args: [{ messages: [{ role: "user", content: "q" }], maxTokens: 20, temperature: 0.1, timeoutMs }],
    method: "agent/complete",
    params: {
      messages: [{ role: "user", content: { type: "text", text: "q" } }],
      maxTokens: 20,
      temperature: 0.1,
    },
    answer: { role: "assistant", content: { type: "text", text: "a" }, model: "m", stopReason: "endTurn" },
  },
];

describe("reverse-call wire frames", () => {
  let host: FakeHost;
  beforeAll(async () => {
    host = await startHost();
  });
  afterAll(async () => {
    await host.close();
  });

  it.each(cases.map((c, index) => ({ ...c, index })))(
    "$path writes $method with the exact params",
    async ({ path, args, method, params, answer, resolves, index }) => {
      const invokeId = `inv-${index}`;
      const before = host.calls.length;
      host.responder = () => answer;
      const outcome = await host.outcome("host_call", { path, args }, { invoke_id: invokeId });
      expect(outcome).toEqual({ ok: true, result: resolves ?? answer });
      expect(host.calls.length).toBe(before + 1);
      const call = host.calls[before]!;
      expect(call.frame).toEqual({
        jsonrpc: "2.0",
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        method,
        params: { ...params, _clientTimeoutS: 4.321, context: { invoke_id: invokeId } },
      });
    },
  );

  it("uses the method's default timeout, bounded by the invoke's remaining time", async () => {
    host.responder = () => ({ value: 1, etag: "e", exists: true });
    const before = host.calls.length;
    // storage/get defaults to 30 s; the tool's timeout is 20 s and the host's deadline is sooner.
    await host.outcome("host_call", { path: "storage.get", args: ["k"] }, { invoke_id: "inv-default" });
    const deadline = Date.now() + 3_000;
    await host.outcome(
      "host_call",
      { path: "storage.get", args: ["k"] },
      { invoke_id: "inv-dl", deadline_ms: deadline },
    );
    const [bounded, byDeadline] = host.calls.slice(before);
    expect(bounded!.params._clientTimeoutS).toBeGreaterThan(19);
    expect(bounded!.params._clientTimeoutS).toBeLessThanOrEqual(20);
    expect(byDeadline!.params._clientTimeoutS).toBeGreaterThan(2.5);
    expect(byDeadline!.params._clientTimeoutS).toBeLessThanOrEqual(3);
  });

  it("omits context when the host sent no invoke id, and stamps a legacy top-level invoke_id", async () => {
    host.responder = () => ({ exists: false });
    const before = host.calls.length;
    await host.outcome("host_call", { path: "storage.get", args: ["k", { timeoutMs }] });
    expect(host.calls[before]!.frame.params).toEqual({ key: "k", scope: "tool", _clientTimeoutS: 4.321 });
    const legacy = await host.invokeRaw({
      tool: "host_call",
      arguments: { path: "storage.get", args: ["k", { timeoutMs }] },
      invoke_id: "legacy-1",
    });
    expect(legacy.data?.ok).toBe(true);
    expect(host.calls[before + 1]!.params.context).toEqual({ invoke_id: "legacy-1" });
  });

  it("writes nothing but frames", () => {
    for (const line of host.stdoutLines) expect(() => JSON.parse(line)).not.toThrow();
  });
});
