// Host error frames become the family's typed error.
import { RpcError } from "@executa/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeHost, startHost } from "./helpers/fake-host.js";

let host: FakeHost;
beforeAll(async () => {
  host = await startHost();
});
afterAll(async () => {
  await host.close();
});

const cases: [string, unknown[], number, string][] = [
  [
    "sampling.createMessage",
    [{ messages: [{ role: "user", content: "x" }], maxTokens: 1 }],
    -32009,
    "SamplingError",
  ],
  ["storage.get", ["k"], -32022, "StorageError"],
  ["storage.set", ["k", 1, { ifMatch: "old" }], -32023, "StorageError"],
  ["files.uploadBegin", ["../etc", {}], -32027, "StorageError"],
  [
    "upload.inline",
    [{ filename: "a.exe", mimeType: "application/x-msdownload", content: "MZ" }],
    -32205,
    "UploadError",
  ],
  ["image.edit", [{ imageUrl: "https://i.test/a.png", prompt: "p" }], -32311, "ImageError"],
  ["embeddings.create", ["t"], -32502, "EmbeddingsError"],
  ["agent.session.run", ["aps_gone", "hi"], -32042, "AgentError"],
  ["agent.complete", [{ messages: [{ role: "user", content: "x" }] }], -32046, "AgentError"],
];

describe("host error frames", () => {
  it.each(cases)("%s answered with %i rejects with %s", async (path, args, code, name) => {
    host.responder = () => {
      throw new RpcError(code, `host says ${code}`, { detail: path });
    };
    const outcome = await host.outcome("host_call", { path, args }, { invoke_id: `err-${code}` });
    expect(outcome).toEqual({
      ok: false,
      error: {
        name,
        code,
        message: `host says ${code}`,
        data: { detail: path },
        family: expect.any(String),
      },
    });
  });

  it("keeps the host's routing error (-32602 with data.errorCode)", async () => {
    host.responder = () => {
      throw new RpcError(-32602, "several invokes are active", { errorCode: "MISSING_INVOKE_CONTEXT" });
    };
    const outcome = await host.outcome("host_call", { path: "storage.get", args: ["k"] }, { invoke_id: "r" });
    expect(outcome.error).toMatchObject({
      name: "StorageError",
      code: -32602,
      data: { errorCode: "MISSING_INVOKE_CONTEXT" },
    });
  });

  it("an error the tool lets escape answers the invoke with the same code, message and data", async () => {
    host.responder = () => {
      throw new RpcError(-32024, "quota exceeded", { used: 5, limit: 5 });
    };
    const answer = await host
      .invoke("host_call_raw", { path: "storage.set", args: ["k", 1] }, { invoke_id: "esc" })
      .then(
        () => undefined,
        (error: RpcError) => error,
      );
    expect(answer).toBeInstanceOf(RpcError);
    expect(answer!.toJSON()).toEqual({
      code: -32024,
      message: "quota exceeded",
      data: { used: 5, limit: 5 },
    });
  });
});
