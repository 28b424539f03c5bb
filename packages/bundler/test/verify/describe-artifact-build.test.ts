import { describe, expect, it } from "vitest";
import { ExecutaBuildError } from "../../src/errors/build-error.js";
import { describeArtifact } from "../../src/verify/describe-artifact.js";
import { verifyArtifact } from "../../src/verify/verify-artifact.js";
import { fixture } from "../helpers/fixtures.js";

// Small fixtures on core's built output (run `pnpm build` first), each breaking one rule.
const node = (name: string, env: NodeJS.ProcessEnv = {}) => ({
  command: process.execPath,
  args: [fixture(`checks/${name}`)],
  env: { ...process.env, ...env },
});

async function failure(promise: Promise<unknown>): Promise<ExecutaBuildError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExecutaBuildError);
  return error as ExecutaBuildError;
}

describe("describeArtifact over real pipes", () => {
  it("answers initialize (2.0) and describe, then exits 0 on stdin EOF", async () => {
    const report = await describeArtifact(node("well-behaved.mjs"));
    expect(report.protocolVersion).toBe("2.0");
    expect(report.manifest).toMatchObject({ name: "misbehaving", version: "0.0.1" });
    expect(report.describeMs).toBeLessThan(5_000);
  });

  it("fails when the process keeps running after stdin closed", async () => {
    const error = await failure(describeArtifact(node("ignores-eof.mjs"), { exitGraceMs: 300 }));
    expect(error.code).toBe("NO_EXIT_ON_EOF");
    expect(error.message).toMatch(/did not exit within 300 ms after stdin closed/);
  });

  it("accepts a v1 plugin that answers initialize with -32601", async () => {
    const report = await describeArtifact(node("v1-only.mjs"));
    expect(report.protocolVersion).toBe("1.1");
    expect(report.manifest.name).toBe("misbehaving");
    expect(report.describeMs).toBeGreaterThanOrEqual(report.initializeMs);
  });

  it("fails on a non-JSON line on stdout and quotes it", async () => {
    const error = await failure(describeArtifact(node("stray-stdout.mjs")));
    expect(error.code).toBe("STRAY_STDOUT");
    expect(error.message).toContain('"starting up..."');
  });

  it("fails when describe is not answered in time", async () => {
    const error = await failure(
      describeArtifact(node("slow-start.mjs", { SLOW_START_MS: "3000" }), { timeoutMs: 400 }),
    );
    expect(error.code).toBe("ARTIFACT_TIMEOUT");
    expect(error.message).toMatch(/initialize was not answered within 400 ms/);
  });

  it("fails when the process exits before answering, keeping its stderr", async () => {
    const error = await failure(describeArtifact(node("crash-at-start.mjs")));
    expect(error.code).toBe("ARTIFACT_EXITED");
    expect(error.message).toMatch(/exited \(code 3\)/);
    expect(error.stderr).toContain("missing configuration");
  });

  it("explains a clean exit before answering as an entry that never serves, as executa dev does", async () => {
    const error = await failure(describeArtifact(node("never-serves.mjs")));
    expect(error.code).toBe("ARTIFACT_EXITED");
    expect(error.message).toMatch(
      /exited \(code 0\) before answering \w+: the plugin's entry must serve the plugin: call serve\(YourClass\) from @executa\/decorators/,
    );
    const crash = await failure(describeArtifact(node("crash-at-start.mjs")));
    expect(crash.message).not.toContain("must serve");
  });

  it("fails when describe answers something that is not a manifest", async () => {
    const error = await failure(describeArtifact(node("not-a-manifest.mjs")));
    expect(error.code).toBe("INVALID_MANIFEST");
  });

  it("fails when the command cannot start", async () => {
    const error = await failure(describeArtifact({ command: fixture("checks/does-not-exist") }));
    expect(error.code).toBe("ARTIFACT_SPAWN");
  });
});

describe("verifyArtifact", () => {
  it("fails with the artifact's stderr in the message", async () => {
    const error = await verifyArtifact(
      node("crash-at-start.mjs"),
      { name: "x", version: "1", description: "", tools: [] },
      {
        step: "verify bundle",
        label: "dist/x.cjs",
      },
    ).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^executa build failed at "verify bundle": dist\/x\.cjs exited/);
    expect((error as Error).message).toContain("fixture: cannot start: missing configuration");
  });

  it("lists every difference from the source manifest", async () => {
    const expected = {
      name: "misbehaving",
      version: "0.0.2",
      description: "A fixture that breaks one rule of the protocol.",
      tools: [
        { name: "noop", description: "Does nothing.", parameters: [{ name: "x", type: "string" as const }] },
      ],
    };
    const error = await verifyArtifact(node("v1-only.mjs"), expected, {
      step: "verify bundle",
      label: "b",
    }).catch((e: Error) => e);
    expect((error as Error).message).toContain("b describes a different manifest than the source:");
    expect((error as Error).message).toContain(
      'tools[noop].parameters[x]: source {"name":"x","type":"string"}, artifact (absent)',
    );
    expect((error as Error).message).toContain('version: source "0.0.2", artifact "0.0.1"');
  });
});
