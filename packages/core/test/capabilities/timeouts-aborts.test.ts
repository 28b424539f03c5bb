// Reverse calls the host never answers: per-call timeouts, the invoke's deadline and the
// caller's signal (the invoke's own signal at shutdown: stdio-process.test.ts).
import { afterEach, describe, expect, it } from "vitest";
import { type FakeHost, startHost } from "./helpers/fake-host.js";

let host: FakeHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe("timeouts", () => {
  it("fails with the family's TIMEOUT code after its own timeout, and drops a late answer", async () => {
    // At debug level: the plugin gave up on that id itself, so its late answer is no warning.
    host = await startHost({ logLevel: "debug" });
    let answerLate!: (value: unknown) => void;
    host.responder = () =>
      new Promise((resolve) => {
        answerLate = resolve;
      });
    const started = Date.now();
    const outcome = await host.outcome(
      "host_call",
      { path: "storage.get", args: ["k", { timeoutMs: 300 }] },
      { invoke_id: "t1" },
    );
    const elapsed = Date.now() - started;
    expect(outcome.error).toMatchObject({ name: "StorageError", code: -32030, data: { timeout_ms: 300 } });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(2_000);
    expect(host.calls[0]!.params._clientTimeoutS).toBe(0.3);
    answerLate({ value: 1, exists: true });
    await host.until(
      () => host!.stderr().includes("dropped the late response for abandoned id"),
      5_000,
      "the drop line",
    );
    expect(host.stderr()).not.toContain("unknown id");
    // Still serving after the late answer.
    host.responder = () => ({ exists: false });
    const next = await host.outcome("host_call", { path: "storage.get", args: ["k"] }, { invoke_id: "t2" });
    expect(next).toEqual({ ok: true, result: { value: null, exists: false } });
  });

  it("never waits past the invoke's deadline: TIMEOUT arrives in time for the tool to answer", async () => {
    host = await startHost();
    const deadline = Date.now() + 800;
    const result = await host.invoke(
      "host_call",
      {
        path: "sampling.createMessage",
        args: [{ messages: [{ role: "user", content: "slow" }], maxTokens: 5 }],
      },
      { invoke_id: "dl", deadline_ms: deadline },
    );
    expect(Date.now()).toBeLessThan(deadline + 200);
    expect(result.success).toBe(true);
    expect(result.data?.error).toMatchObject({ name: "SamplingError", code: -32005 });
    const sent = host.calls[0]!.params._clientTimeoutS!;
    expect(sent).toBeGreaterThan(0.5);
    expect(sent).toBeLessThan(0.8);
  });

  it("raises each family's TIMEOUT code", async () => {
    host = await startHost();
    const cases: [string, unknown[], string, number][] = [
      [
        "sampling.createMessage",
        [{ messages: [{ role: "user", content: "x" }], maxTokens: 1, timeoutMs: 100 }],
        "SamplingError",
        -32005,
      ],
      ["storage.set", ["k", 1, { timeoutMs: 100 }], "StorageError", -32030],
      ["files.delete", ["a", { timeoutMs: 100 }], "StorageError", -32030],
      ["upload.confirm", ["k", { timeoutMs: 100 }], "UploadError", -32208],
      ["image.generate", [{ prompt: "p", timeoutMs: 100 }], "ImageError", -32105],
      ["embeddings.create", ["t", { timeoutMs: 100 }], "EmbeddingsError", -32505],
      ["agent.session.history", ["aps_1", { timeoutMs: 100 }], "AgentError", -32005],
    ];
    const outcomes = await Promise.all(
      cases.map(([path, args], index) =>
        host!.outcome("host_call", { path, args }, { invoke_id: `to-${index}` }),
      ),
    );
    outcomes.forEach((outcome, index) => {
      const [path, , name, code] = cases[index]!;
      expect(outcome.error, path).toMatchObject({ name, code });
    });
    expect(host.calls).toHaveLength(cases.length);
  });
});

describe("aborts", () => {
  it("the caller's signal aborts the call with its reason", async () => {
    host = await startHost();
    const outcome = await host.outcome("sample_abort_after", { ms: 200 }, { invoke_id: "ab" });
    expect(outcome.error).toMatchObject({ name: "Error", message: "caller gave up" });
    expect(host.calls).toHaveLength(1);
  });
});
