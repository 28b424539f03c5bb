// Every family once more, against the probe built the way a plugin ships: one single
// executable (node SEA) for all families, spawned over real pipes by the local host.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  AgentErrorCode,
  EmbeddingsErrorCode,
  ImageErrorCode,
  SamplingErrorCode,
  StorageErrorCode,
  UploadErrorCode,
} from "@executa/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildExecutables } from "../../../bundler/src/index.js";
import { expectSuccess, type PluginTestClient, runBinary } from "../../src/index.js";
import type { Outcome, Step } from "./fixtures/family-probe.js";
import { failed, ok } from "./harness.js";

const ENTRY = fileURLToPath(new URL("./fixtures/family-main.ts", import.meta.url));

let outDir: string;
let executable: string;
beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "executa-family-sea-"));
  const result = await buildExecutables({ entry: ENTRY, outDir, quiet: true });
  const [binary] = result.binaries;
  if (!binary) throw new Error("the build produced no executable for this platform");
  executable = binary.path;
}, 180_000);
afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

const open: PluginTestClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close({ graceMs: 500 })));
});

async function run(steps: Step[], options: Parameters<typeof runBinary>[2] = {}): Promise<Outcome[]> {
  const client = await runBinary(executable, [], options);
  open.push(client);
  expect(client.negotiated?.protocolVersion).toBe("2.0");
  return expectSuccess(await client.invoke<{ outcomes: Outcome[] }>("run", { steps })).outcomes;
}

const file = { filename: "a.txt", mimeType: "text/plain", purpose: "user_artifact" };

describe("the probe as a single executable", () => {
  it("answers every family's happy path", async () => {
    const [stored, read, uploaded, transient, sampled, created, image, embedded, session, ran] = await run([
      { op: "storage.set", input: { key: "k", value: { n: 1 } } },
      { op: "storage.get", input: { key: "k" } },
      { op: "files.upload", input: { path: "docs/a.txt", text: "file body" } },
      { op: "upload.uploadBytes", input: { ...file, text: "transient" } },
      {
        op: "sampling.createMessage",
        input: { messages: [{ role: "user", content: "ping" }], maxTokens: 8 },
      },
      { op: "sampling.createObject", input: { messages: [{ role: "user", content: "Quiet harbour" }] } },
      { op: "image.generate", input: { prompt: "harbour", size: "8x8" } },
      { op: "embeddings.create", input: { input: "harbour" } },
      { op: "agent.createSession", input: { label: "sea" } },
      { op: "agent.run", input: { content: "hello agent" } },
    ]);
    ok(stored);
    expect(ok(read).value).toEqual({ n: 1 });
    expect(ok(uploaded).downloaded).toBe("file body");
    expect(ok(transient).downloaded).toBe("transient");
    expect(ok(sampled).content.text).toBe("ping");
    expect(ok(created)).toMatchObject({
      object: { summary: "Quiet harbour" },
      isInstance: true,
      structuredValid: true,
    });
    expect(ok(image).images[0]).toMatchObject({ mimeType: "image/png", width: 8 });
    expect(ok(embedded).data[0].embedding).toHaveLength(1536);
    ok(session);
    expect(ok(ran)).toMatchObject({ text: "hello agent", completed: true });
  });

  it("raises every family's error codes from the host's answers", async () => {
    const outcomes = await run(
      [
        { op: "storage.set", input: { key: "k", value: 1, ifMatch: "stale" } },
        { op: "files.downloadUrl", input: { path: "missing.txt" } },
        { op: "upload.inline", input: { ...file, text: "x".repeat(20) } },
        {
          op: "sampling.createMessage",
          input: {
            messages: [{ role: "user", content: "x" }],
            maxTokens: 8,
            responseFormat: { type: "json_schema", json_schema: { name: "s", schema: { type: "object" } } },
          },
        },
        { op: "image.generate", input: { prompt: "x", n: 9 } },
        { op: "embeddings.create", input: { input: "word ".repeat(40) } },
        { op: "agent.attach.run", input: { uuid: "nope", content: "x" } },
      ],
      {
        sampling: { mode: "echo", responseFormats: [] },
        local: { maxInlineUploadBytes: 8, embeddingsLimits: { maxTokensPerInput: 10 } },
      },
    );
    const expected: [number, string][] = [
      [StorageErrorCode.PRECONDITION_FAILED, "StorageError"],
      [StorageErrorCode.NOT_FOUND, "StorageError"],
      [UploadErrorCode.TOO_LARGE, "UploadError"],
      [SamplingErrorCode.UNSUPPORTED_RESPONSE_FORMAT, "SamplingError"],
      [ImageErrorCode.MAX_IMAGES, "ImageError"],
      [EmbeddingsErrorCode.MAX_TOKENS, "EmbeddingsError"],
      [AgentErrorCode.SESSION_NOT_FOUND, "AgentError"],
    ];
    outcomes.forEach((outcome, index) => {
      const [code, name] = expected[index]!;
      failed(outcome, code, name);
    });
  });
});
